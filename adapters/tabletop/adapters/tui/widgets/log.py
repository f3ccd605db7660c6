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
from itertools import islice

from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Region, Size
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
    action: int = 0
    """The action the entry belongs to (0: setup, or the note on earlier entries)."""
    source: LogEntry | None = field(default=None, compare=False, repr=False)
    """For a choice line, the engine's log entry it tells (an undo is checked by it)."""

    @property
    def plain(self) -> str:
        """The entry as one line of text, as ``tabletop export`` prints it (less its
        number column, which the export pads to other widths)."""
        return self.text + (PRIVATE_MARK if self.private else "")


def story_entry(line: StoryLine, source: LogEntry | None = None) -> LogLine:
    """A line of the engine's story as a log entry: a choice numbered by its action,
    the events under it, a heading drawn as one."""
    event = line.event
    if event is None:
        return LogLine(line.action, line.text, "bold", action=line.action, source=source)
    if event.kind == HEADING:
        return LogLine(None, line.text, "bold reverse", heading=True, action=line.action)
    return LogLine(None, line.text, private=event.private, action=line.action)


@dataclass
class _Told:
    """One viewer's story as far as it has been told: how many actions and history
    entries (and the last of each: an undo that took them back is noticed), the
    entries, and their lines wrapped at ``width``."""

    actions: int = 0
    events: int = 0
    last_action: LogEntry | None = None
    last_event: Event | None = None
    entries: deque[LogLine] = field(default_factory=lambda: deque(maxlen=MAX_LOG_LINES))
    counts: deque[int] = field(default_factory=deque)
    strips: list[Strip] = field(default_factory=list)
    width: int = 0

    def still_true(self, engine: Engine) -> bool:
        log, history = engine.log, engine.history
        if len(log) < self.actions or len(history) < self.events:
            return False
        if self.actions and log[self.actions - 1] is not self.last_action:
            return False
        return not self.events or history[self.events - 1][1] is self.last_event

    def caught_up(self, engine: Engine) -> None:
        self.actions, self.events = len(engine.log), len(engine.history)
        self.last_action = engine.log[-1] if engine.log else None
        self.last_event = engine.history[-1][1] if engine.history else None

    def drop_last(self, count: int) -> None:
        """Forget the newest ``count`` entries and their lines."""
        for _ in range(min(count, len(self.entries))):
            self.entries.pop()
            lines = self.counts.pop() if self.counts else 0
            if lines:
                del self.strips[-lines:]


class GameLog(ScrollView, can_focus=True):
    """The story as the viewer may read it (``Engine.story``), newest at the bottom.

    Each viewer's story is kept (entries and wrapped lines, off screen while another
    seat looks), so a hand-off, a switch of seat in hot-seat play or an undo costs
    what changed, not the whole game: new entries are appended, undone ones dropped.
    Nobody sees another seat's private events: each viewer has its own story. Holds
    only the newest MAX_LOG_LINES entries of each.
    """

    DEFAULT_CSS = """
    GameLog {
        width: 1fr;
        overflow-x: hidden;
        overflow-y: scroll;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._viewer: int | None = None
        self._told = _Told()
        #: Other viewers' stories, kept off screen (never drawn while kept), by viewer.
        self._put_away: dict[int | None, _Told] = {}
        #: The width the lines are wrapped at (0 until the widget has a size).
        self._width = 0
        #: Set when the widget was emptied: the next sync shows that viewer's story.
        self._blank = True
        #: Whether the newest entry is in view: then the log keeps following it (new
        #: entries, a smaller log), until the player scrolls up to read.
        self._at_end = True
        #: The style and width of the lines being drawn (``render_lines``).
        self._line_style: tuple[Style, int] | None = None

    @property
    def _strips(self) -> list[Strip]:
        return self._told.strips

    # Telling the story ---------------------------------------------------------------

    def sync(self, engine: Engine, viewer: int | None) -> None:
        """Show ``viewer``'s story up to now: only what is new since it was last shown
        (the entries an undo took back are dropped)."""
        changed = self._blank or viewer != self._viewer
        if changed:
            if not self._blank:
                self._put_away[self._viewer] = self._told
            self._told = self._put_away.pop(viewer, _Told())
            self._viewer = viewer
            self._blank = False
        told = self._told
        lines = len(told.strips)
        if not told.still_true(engine):
            changed = True
            if not self._take_back(engine, told):
                self._told = told = _Told()
                self._start_window(engine, told)
        if told.width != self._width:
            changed = True
            self._rewrap(told)
        new = list(engine.story(viewer, actions=told.actions, events=told.events))
        told.caught_up(engine)
        if new:
            log = engine.log
            entries = [
                story_entry(line, log[line.action - 1] if line.event is None else None)
                for line in new[-MAX_LOG_LINES:]
            ]
            self._append(told, entries)
        # Nothing new (the same seat's screen drawn again): nothing to draw again.
        if changed or new or len(told.strips) != lines:
            self._resized()

    def _take_back(self, engine: Engine, told: _Told) -> bool:
        """After an undo, drop the entries of the actions taken back; False when the
        story changed otherwise (it is then told afresh)."""
        log, history = engine.log, engine.history
        kept = len(log)
        if kept >= told.actions or len(history) > told.events:
            return False
        if kept:
            choice = next((entry for entry in reversed(told.entries) if entry.number == kept), None)
            if choice is None or choice.source is not log[kept - 1]:
                return False
        drop = 0
        for entry in reversed(told.entries):
            if entry.action <= kept:
                break
            drop += 1
        told.drop_last(drop)
        told.caught_up(engine)
        return True

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
        skipped = action + sum(
            1 for _, event in islice(history, position) if event.visible_to(viewer)
        )
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
        story off screen so that its log comes back at its next turn without telling
        the whole game again (only what happened since is added then)."""
        if not self._blank:
            self._put_away[self._viewer] = self._told
        self.clear()

    def clear(self) -> GameLog:
        self._told = _Told()
        self._blank = True
        self._resized()
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

    def _append(self, told: _Told, entries: Iterable[LogLine]) -> None:
        for entry in entries:
            if len(told.entries) == told.entries.maxlen:
                dropped = told.counts.popleft() if told.counts else 0
                del told.strips[:dropped]
            told.entries.append(entry)
            if told.width:
                wrapped = self._wrap(entry)
                told.counts.append(len(wrapped))
                told.strips.extend(wrapped)

    def _rewrap(self, told: _Told) -> None:
        """Wrap every entry again, at the widget's width now."""
        told.counts.clear()
        told.strips.clear()
        told.width = self._width
        if self._width:
            for entry in told.entries:
                wrapped = self._wrap(entry)
                told.counts.append(len(wrapped))
                told.strips.extend(wrapped)

    def _resized(self) -> None:
        """Size the scrolling to the lines; keep following the newest entry unless the
        player scrolled up to read an older one."""
        follow = self._at_end
        self.virtual_size = Size(self._width, len(self._strips))
        # The scrollbar learns the new length now, with the scrolling below, so that it
        # is drawn once with the screen (told by the layout, it is drawn again after).
        self.vertical_scrollbar.window_virtual_size = len(self._strips)
        if follow:
            self.scroll_end(animate=False, immediate=True, x_axis=False)
        self.refresh()

    def watch_scroll_y(self, old: float, new: float) -> None:
        super().watch_scroll_y(old, new)
        self._at_end = new >= self.max_scroll_y

    def _size_updated(
        self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True
    ) -> bool:
        """Told its size by a layout. Textual's scroll view compares the size of its
        region with the length of its content, which differ whenever the log is longer
        than its window, and updates its scrollbar at every layout of the screen: the
        scrollbar was drawn again after each move. Here only a change of the log's own
        size (or its container's) does; its length updates the scrollbar itself
        (``_resized``)."""
        return super()._size_updated(size, self.virtual_size, container_size, layout)

    def on_resize(self, event: events.Resize) -> None:
        width = self.scrollable_content_region.width
        if width != self._width:
            self._width = width
            self._rewrap(self._told)
            self._resized()
        elif self._at_end:
            # Only the height changed (the decision above grew or shrank): the lines
            # are as they were and Textual draws the resized log itself; it only has
            # to keep following the newest entry.
            self.scroll_end(animate=False, immediate=True, x_axis=False)

    def render_lines(self, crop: Region) -> list[Strip]:
        # The widget's style and width are the same for every line of one drawing:
        # worked out once here, not for each line (the style walks up the DOM).
        self._line_style = (self.rich_style, self.scrollable_content_region.width)
        try:
            return super().render_lines(crop)
        finally:
            self._line_style = None

    def render_line(self, y: int) -> Strip:
        style, width = self._line_style or (self.rich_style, self.scrollable_content_region.width)
        index = self.scroll_offset.y + y
        if index >= len(self._strips):
            return Strip.blank(width, style)
        return self._strips[index].crop_extend(0, width, style).apply_style(style)

    # Reading (tests, copy-paste) -----------------------------------------------------

    def text_lines(self) -> list[str]:
        """The log's lines as drawn now, plain text."""
        return [strip.text for strip in self._strips]

    def entries(self) -> Sequence[LogLine]:
        """The entries now held, unwrapped."""
        return list(self._told.entries)
