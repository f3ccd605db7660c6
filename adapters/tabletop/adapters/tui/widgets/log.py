"""The game log: the game's story in words (``Engine.story``), filtered for whoever is
looking, numbered by action, with the game's phase headings.

The widget keeps each entry's words, not lines drawn at one width: an entry is wrapped
to the width the log has now, and the whole (bounded) window is wrapped again when the
terminal is resized, so no character is ever cut off where a line wraps and a narrowed
log re-flows. New entries are wrapped and appended on their own: a key press costs the
same at move 10 and at move 10,000.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from rich.console import Console
from rich.segment import Segment
from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from tabletop.framework.engine import Engine, LogEntry, StoryLine
from tabletop.framework.game import HEADING, Event

#: Most entries the log widget holds: a window on the newest. A legal save may hold
#: hundreds of thousands of actions; the widget's memory (and the time to open it) must
#: not grow with them. The whole log is ``tabletop export``'s job.
MAX_LOG_LINES = 1000
#: Cells of the number column ("  12 "); wrapped lines are indented as far.
NUMBER_WIDTH = 5
#: Marks an event only the viewer sees.
PRIVATE_MARK = "  (private)"


@dataclass
class LogLine:
    """One entry of the log: its number (None: not numbered), words and style."""

    number: int | None
    text: str
    style: str = ""
    heading: bool = False
    private: bool = False

    @property
    def plain(self) -> str:
        """The entry as one line of text, as ``tabletop export`` prints it (less its
        number column, which the export pads to other widths)."""
        return self.text + (PRIVATE_MARK if self.private else "")


def story_entry(line: StoryLine) -> LogLine:
    """A line of the engine's story as a log entry: a choice numbered by its action,
    the events under it, a heading drawn as one."""
    event = line.event
    if event is None:
        return LogLine(line.action, line.text, "bold")
    if event.kind == HEADING:
        return LogLine(None, line.text, "bold reverse", heading=True)
    return LogLine(None, line.text, private=event.private)


@dataclass
class _Told:
    """How far a viewer's story has been told: actions, history entries, and the
    last of each (identity: an undo that took them back is noticed)."""

    actions: int = 0
    events: int = 0
    last_action: LogEntry | None = None
    last_event: Event | None = None
    entries: deque[LogLine] = field(default_factory=lambda: deque(maxlen=MAX_LOG_LINES))

    def still_true(self, engine: Engine) -> bool:
        log, history = engine.log, engine.history
        if len(log) < self.actions or len(history) < self.events:
            return False
        if self.actions and log[self.actions - 1] is not self.last_action:
            return False
        return not self.events or history[self.events - 1][1] is self.last_event


class GameLog(ScrollView, can_focus=True):
    """The story as the viewer may read it (``Engine.story``), newest at the bottom.

    Appends what is new at each sync; tells the story again when the viewer changes
    (hand-off to another seat, whose put-away entries come back as they were) or the
    history changed under it (undo), so nobody sees another seat's private events.
    Holds only the newest MAX_LOG_LINES entries.
    """

    DEFAULT_CSS = """
    GameLog {
        overflow-x: hidden;
        overflow-y: scroll;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._viewer: int | None = None
        self._told = _Told()
        #: Seats' entries put away at hand-offs (never drawn while put away), by viewer.
        self._put_away: dict[int | None, _Told] = {}
        #: The entries wrapped at ``_width``: each entry's lines, and all of them flat.
        self._width = 0
        self._counts: deque[int] = deque()
        self._strips: list[Strip] = []
        #: Set when the widget was emptied: the next sync tells the story afresh.
        self._blank = True

    # Telling the story ---------------------------------------------------------------

    def sync(self, engine: Engine, viewer: int | None) -> None:
        """Show ``viewer``'s story up to now: only what is new, unless the viewer or
        the history changed."""
        told = self._told
        if self._blank or viewer != self._viewer or not told.still_true(engine):
            kept = self._put_away.pop(viewer, None) if self._blank else None
            self._viewer = viewer
            self._blank = False
            if kept is not None and kept.still_true(engine):
                self._told = told = kept
                self._rewrap()
            else:
                self._told = told = _Told()
                self._start_window(engine, told)
                self._rewrap()
        new = list(engine.story(viewer, actions=told.actions, events=told.events))
        told.actions, told.events = len(engine.log), len(engine.history)
        told.last_action = engine.log[-1] if engine.log else None
        told.last_event = engine.history[-1][1] if engine.history else None
        if new:
            self._append([story_entry(line) for line in new[-MAX_LOG_LINES:]])

    def _start_window(self, engine: Engine, told: _Told) -> None:
        """Start the story late when it holds more than MAX_LOG_LINES entries: walk
        back over whole actions (counting, never wording them) to where the window
        begins, and say how many entries came before."""
        log, history = engine.log, engine.history
        viewer = self._viewer
        action, position, shown = len(log), len(history), 0
        while action > 0 and shown < MAX_LOG_LINES - 1:  # room for the note
            while position > 0 and history[position - 1][0] == action:
                position -= 1
                shown += history[position][1].visible_to(viewer)
            shown += 1  # the action's choice line
            action -= 1
        if action == 0:
            return  # the whole story fits (setup events included)
        skipped = action + sum(1 for _, event in history[:position] if event.visible_to(viewer))
        told.actions, told.events = action, position
        told.entries.append(
            LogLine(
                None,
                f"… {skipped:,} earlier entries not shown here "
                "(tabletop export shows the whole log)",
                "dim italic",
            )
        )

    def put_away(self) -> None:
        """Empty the widget before the device changes hands, keeping this seat's
        entries off screen so that its log comes back at its next turn without telling
        the whole game again (only what happened since is added then)."""
        if not self._blank:
            self._put_away[self._viewer] = self._told
        self.clear()

    def clear(self) -> GameLog:
        self._told = _Told()
        self._blank = True
        self._rewrap()
        return self

    # Drawing -------------------------------------------------------------------------

    @property
    def _console(self) -> Console:
        return self.app.console

    def _wrap(self, entry: LogLine) -> list[Strip]:
        """An entry's lines at ``_width``: the number column, then the words folded
        into the rest of the width (a word longer than a line is split, never cut)."""
        body = Text(entry.text, style=entry.style)
        if entry.private:
            body.append(PRIVATE_MARK, style="dim italic")
        room = max(self._width - NUMBER_WIDTH, 8)
        lines = body.wrap(self._console, room, overflow="fold") if entry.text else [Text()]
        number = f"{entry.number:>{NUMBER_WIDTH - 1}} " if entry.number else " " * NUMBER_WIDTH
        strips = []
        for index, line in enumerate(lines):
            line.rstrip()
            prefix = Text(number if index == 0 else " " * NUMBER_WIDTH, style="dim")
            segments = list(Text.assemble(prefix, line).render(self._console))
            strips.append(Strip(segments))
        if entry.heading:
            strips.insert(0, Strip([Segment("")]))  # a blank line above a heading
        return strips

    def _append(self, entries: Iterable[LogLine]) -> None:
        told = self._told
        for entry in entries:
            if len(told.entries) == told.entries.maxlen:
                dropped = self._counts.popleft() if self._counts else 0
                del self._strips[:dropped]
            told.entries.append(entry)
            if self._width:
                wrapped = self._wrap(entry)
                self._counts.append(len(wrapped))
                self._strips.extend(wrapped)
        self._resized()

    def _rewrap(self) -> None:
        """Wrap every entry again (a new width, or a new set of entries)."""
        self._counts.clear()
        self._strips = []
        if self._width:
            for entry in self._told.entries:
                wrapped = self._wrap(entry)
                self._counts.append(len(wrapped))
                self._strips.extend(wrapped)
        self._resized()

    def _resized(self) -> None:
        """Size the scrolling to the lines; keep following the newest entry unless the
        player scrolled up to read an older one."""
        follow = self.scroll_offset.y >= self.max_scroll_y
        self.virtual_size = Size(self._width, len(self._strips))
        if follow:
            self.scroll_end(animate=False, immediate=True, x_axis=False)
        self.refresh()

    def on_resize(self, event: events.Resize) -> None:
        width = self.scrollable_content_region.width
        if width != self._width:
            self._width = width
            self._rewrap()

    def render_line(self, y: int) -> Strip:
        scroll_y = self.scroll_offset.y
        index = scroll_y + y
        width = self.scrollable_content_region.width
        if index >= len(self._strips):
            return Strip.blank(width, self.rich_style)
        return (
            self._strips[index].crop_extend(0, width, self.rich_style).apply_style(self.rich_style)
        )

    # Reading (tests, copy-paste) -----------------------------------------------------

    def text_lines(self) -> list[str]:
        """The log's lines as drawn now, plain text."""
        return [strip.text for strip in self._strips]

    def entries(self) -> Sequence[LogLine]:
        """The entries now held, unwrapped."""
        return list(self._told.entries)
