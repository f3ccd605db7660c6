"""The game log: a seat's story in words, as its table told it (``seats.LogLine``:
each action's choice line, then the events the seat may see), numbered by action, with
the game's phase headings.

The widget keeps each entry's words, not lines drawn at one width: an entry is wrapped
to the width the log has now, and the whole (bounded) window is wrapped again when the
terminal is resized, so no character is ever cut off where a line wraps and a narrowed
log re-flows. New entries are wrapped and appended on their own: a key press costs the
same at move 10 and at move 10,000. Each seat at the screen (hot-seat) has its story
kept apart: nobody sees another seat's private events.

The entries told since the viewer's last decision are marked (``mark_new``): when a
decision comes, the player sees what just happened, and when those entries do not fit,
the log's border says how many are above (``l`` shows them).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Region, Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from tabletop.framework.game import HEADING, Event
from tabletop.framework.seats import LogLine as SeatLine

#: Most entries the log widget holds: a window on the newest. A legal save may hold
#: hundreds of thousands of actions; the widget's memory (and the time to open it) must
#: not grow with them. The whole log is ``tabletop export``'s job.
MAX_LOG_LINES = 1000
#: Cells of the number column (the new mark, then "  12 "); wrapped lines are indented
#: as far.
NUMBER_WIDTH = 6
#: Marks an event only the viewer sees.
PRIVATE_MARK = "  (private)"
#: Marks, in the number column, an entry told since the viewer's last decision.
NEW_MARK = "▌"
NEW_STYLE = Style(color="yellow", bold=True)


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

    @property
    def plain(self) -> str:
        """The entry as one line of text, as ``tabletop export`` prints it (less its
        number column, which the export pads to other widths)."""
        return self.text + (PRIVATE_MARK if self.private else "")


class StoryItem(Protocol):
    """A line of a seat's story: the seat protocol's ``LogLine`` (the engine's
    ``StoryLine`` has the same three fields)."""

    @property
    def action(self) -> int: ...

    @property
    def text(self) -> str: ...

    @property
    def event(self) -> Event | None: ...


def story_entry(line: StoryItem) -> LogLine:
    """A line of a seat's story as a log entry: a choice numbered by its action, the
    events under it, a heading drawn as one."""
    event = line.event
    if event is None:
        return LogLine(line.action, line.text, "bold", action=line.action)
    if event.kind == HEADING:
        return LogLine(None, line.text, "bold reverse", heading=True, action=line.action)
    return LogLine(None, line.text, private=event.private, action=line.action)


@dataclass
class _Told:
    """One viewer's story: the entries (the newest MAX_LOG_LINES), how many came
    before them, and their lines wrapped at ``width``."""

    entries: deque[LogLine] = field(default_factory=lambda: deque(maxlen=MAX_LOG_LINES - 1))
    """The newest entries, with room for the note that says how many came before."""
    counts: deque[int] = field(default_factory=deque)
    strips: list[Strip] = field(default_factory=list)
    width: int = 0
    dropped: int = 0
    """Entries that fell out of the window (said in a note above the first entry)."""
    note_lines: int = 0
    """How many of ``strips`` are that note's (at the top)."""
    new_after: int | None = None
    """Entries of actions after this one are new (``GameLog.mark_new``); None: none."""

    def drop_last(self, count: int) -> None:
        """Forget the newest ``count`` entries and their lines."""
        for _ in range(min(count, len(self.entries))):
            self.entries.pop()
            lines = self.counts.pop() if self.counts else 0
            if lines:
                del self.strips[-lines:]

    def entry_lines(self) -> Iterable[tuple[LogLine, int]]:
        """Each entry with the first of its lines in ``strips``."""
        line = self.note_lines
        for entry, count in zip(self.entries, self.counts, strict=False):
            yield entry, line
            line += count


class GameLog(ScrollView, can_focus=True):
    """The story of the seat on screen, newest at the bottom.

    Each seat's story is kept (entries and wrapped lines, off screen while another seat
    looks), so a hand-off, a switch of seat in hot-seat play or an undo costs what
    changed, not the whole game: new entries are appended, undone ones dropped.
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
        self._viewer: object = None
        self._told = _Told()
        #: Every seat's story, by the key the screen gives it (the one shown included).
        self._stories: dict[object, _Told] = {}
        #: The width the lines are wrapped at (0 until the widget has a size).
        self._width = 0
        #: Whether the newest entry is in view: then the log keeps following it (new
        #: entries, a smaller log), until the player scrolls up to read.
        self._at_end = True
        #: The style and width of the lines being drawn (``render_lines``), and the
        #: first line marked new.
        self._line_style: tuple[Style, int] | None = None
        self._first_new: int | None = None
        #: Reading the entries new since the last decision (``scroll_to_new``).
        self._reading_new = False

    @property
    def _strips(self) -> list[Strip]:
        return self._told.strips

    # Telling the story ---------------------------------------------------------------

    def _story(self, key: object) -> _Told:
        told = self._stories.get(key)
        if told is None:
            told = self._stories[key] = _Told()
        return told

    def add(self, key: object, lines: Sequence[SeatLine], rewind: int | None = None) -> None:
        """Add to ``key``'s story what its table told it: first forget the entries of
        actions after ``rewind`` (an undo), then append ``lines``."""
        told = self._story(key)
        shown = told is self._told
        if rewind is not None:
            drop = 0
            for entry in reversed(told.entries):
                if entry.action <= rewind:
                    break
                drop += 1
            told.drop_last(drop)
        entries = [story_entry(line) for line in lines[-MAX_LOG_LINES:]]
        told.dropped += max(0, len(lines) - MAX_LOG_LINES)
        self._append(told, entries)
        if shown and (entries or rewind is not None):
            self._resized()

    def reset(self, key: object, lines: Sequence[SeatLine]) -> None:
        """Tell ``key``'s story afresh from ``lines`` (its whole story)."""
        old = self._stories.get(key)
        told = self._stories[key] = _Told(new_after=None if old is None else old.new_after)
        if key == self._viewer:
            self._told = told
            told.width = self._width
        self.add(key, lines)

    def show(self, key: object) -> None:
        """Show ``key``'s story (another seat's goes off screen, kept)."""
        told = self._story(key)
        if told is self._told and key == self._viewer:
            return
        self._viewer, self._told = key, told
        if told.width != self._width:
            self._rewrap(told)
        self._at_end = True
        self._resized()

    def mark_new(self, key: object, after: int) -> int:
        """Mark ``key``'s entries of actions after ``after`` as new (and those added
        later, until the next call); return how many are marked now. The entries are
        in the order of their actions, so the marked ones are the newest: the mark is
        drawn over their first column (``render_line``), nothing is wrapped again."""
        told = self._story(key)
        shown = told is self._told
        before = self._new_line(told) if shown else None
        told.new_after = after
        marked = 0
        for entry in reversed(told.entries):
            if entry.action <= after:
                break
            marked += 1
        if shown:  # draw again only the lines whose mark changed
            now = self._new_line(told)
            if before != now:
                end = len(told.strips)
                low = min(end if before is None else before, end if now is None else now)
                high = max(end if before is None else before, end if now is None else now)
                if high > low:
                    self.refresh_lines(low, high - low)
        return marked

    @staticmethod
    def _new_line(told: _Told) -> int | None:
        """The first of ``told``'s lines that belongs to a new entry, if any."""
        if told.new_after is None:
            return None
        first = None
        for entry, line in told.entry_lines():
            if entry.action > told.new_after:
                first = line
                break
        return first

    def new_above(self) -> int:
        """How many of the shown story's marked entries start above the visible lines."""
        told = self._told
        after = told.new_after
        if after is None:
            return 0
        height = self.scrollable_content_region.height
        top = max(0, len(told.strips) - height) if self._at_end else round(self.scroll_offset.y)
        return sum(1 for entry, line in told.entry_lines() if entry.action > after and line < top)

    def scroll_to_new(self) -> None:
        """Scroll to the first marked entry of the shown story (again after a resize
        re-wraps the lines, until ``follow``)."""
        self._reading_new = True
        first = self._new_line(self._told)
        if first is not None and first < len(self._strips):
            self._at_end = False
            self.scroll_to(y=first, animate=False, immediate=True)

    def follow(self) -> None:
        """Back to following the newest entry (the end of a read of the new ones)."""
        self._reading_new = False
        self._at_end = True
        self.scroll_end(animate=False, immediate=True, x_axis=False)

    def put_away(self) -> None:
        """Empty the widget before the device changes hands (every story is kept off
        screen; the next ``show`` brings one back)."""
        self._viewer, self._told = object(), _Told()
        self._resized()

    def clear(self) -> GameLog:
        self._stories.clear()
        self.put_away()
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
        number = f" {entry.number:>{NUMBER_WIDTH - 2}} " if entry.number else " " * NUMBER_WIDTH
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
                del told.strips[told.note_lines : told.note_lines + dropped]
                told.dropped += 1
                self._note(told)
            told.entries.append(entry)
            if told.width:
                wrapped = self._wrap(entry)
                told.counts.append(len(wrapped))
                told.strips.extend(wrapped)

    def _note(self, told: _Told) -> None:
        """The note above the window, saying how many entries fell out of it."""
        if not told.width or not told.dropped:
            return
        note = LogLine(
            None,
            f"… {told.dropped:,} earlier entries not shown here "
            "(tabletop export shows the whole log)",
            "dim italic",
        )
        told.strips[: told.note_lines] = lines = self._wrap(note)
        told.note_lines = len(lines)

    def _rewrap(self, told: _Told) -> None:
        """Wrap every entry again, at the widget's width now."""
        told.counts.clear()
        told.strips.clear()
        told.note_lines = 0
        told.width = self._width
        if self._width:
            self._note(told)
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
            if self._reading_new:
                self.scroll_to_new()
        elif self._at_end:
            # Only the height changed (the decision above grew or shrank): the lines
            # are as they were and Textual draws the resized log itself; it only has
            # to keep following the newest entry.
            self.scroll_end(animate=False, immediate=True, x_axis=False)

    def render_lines(self, crop: Region) -> list[Strip]:
        # The widget's style and width are the same for every line of one drawing:
        # worked out once here, not for each line (the style walks up the DOM).
        self._line_style = (self.rich_style, self.scrollable_content_region.width)
        self._first_new = self._new_line(self._told)
        try:
            return super().render_lines(crop)
        finally:
            self._line_style = None

    def render_line(self, y: int) -> Strip:
        style, width = self._line_style or (self.rich_style, self.scrollable_content_region.width)
        index = self.scroll_offset.y + y
        if index >= len(self._strips):
            return Strip.blank(width, style)
        strip = self._strips[index]
        first = self._first_new
        if first is not None and index >= first:  # new since the last decision: marked
            strip = Strip.join([Strip([Segment(NEW_MARK, NEW_STYLE)]), strip.crop(1)])
        return strip.crop_extend(0, width, style).apply_style(style)

    # Reading (tests, copy-paste) -----------------------------------------------------

    def text_lines(self) -> list[str]:
        """The log's lines as drawn now, plain text."""
        return [strip.text for strip in self._strips]

    def entries(self) -> Sequence[LogLine]:
        """The entries now held, unwrapped."""
        return list(self._told.entries)
