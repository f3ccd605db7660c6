"""New game dialog: game, its declared options, player count, who plays each seat (a
person or a bot, each bot kind described in one line), the search bots' strength, seed."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Input, Label, Select, Static
from textual.widgets._select import SelectOverlay

from tabletop.adapters.bots import STRENGTHS, describe
from tabletop.adapters.tui.presenting import NewGameSpec, shorten
from tabletop.adapters.tui.screens.base import tabletop
from tabletop.framework.game import GameDefinition
from tabletop.framework.session import AUTOMATED, HUMAN, automated_seats

#: What the dialog shows for a seat the game plays itself (a solitaire's opponent).
AUTOMATED_TEXT = "solo opponent (the game's procedure)"


class SeatSelect(Select[str]):
    """Who plays a seat. Its open list covers the seat's label, so the list's own
    title says whose seat it is."""

    def __init__(self, seat_name: str, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seat_name = seat_name

    def on_mount(self) -> None:
        self.query_one(SelectOverlay).border_title = f"Who plays {self.seat_name}?"


class NewGameForm(VerticalScroll):
    """The form's fields, rebuilt (recomposed) when the game or player count changes
    because those change which options and seats exist."""

    def __init__(self, dialog: NewGameScreen) -> None:
        super().__init__(id="new-game-form")
        self.dialog = dialog

    def compose(self) -> ComposeResult:
        d = self.dialog
        game = d.game
        info = game.info
        app = tabletop(self)
        games = sorted(app.registry.games.values(), key=lambda g: g.info.title)
        with Horizontal(classes="field"):
            yield Label("Game", classes="field-label")
            yield Select(
                [(g.info.title, g.info.id) for g in games],
                value=info.id,
                allow_blank=False,
                compact=True,
                id="game",
            )
        if info.description:
            yield Static(info.description, classes="field-help", markup=False)
        for index, spec in enumerate(info.options):
            with Horizontal(classes="field"):
                yield Label(spec.label, classes="field-label")
                yield Select(
                    [(label, value) for value, label in spec.choices],
                    value=d.options[spec.key],
                    allow_blank=False,
                    compact=True,
                    id=f"option-{index}",
                )
            if spec.help:
                yield Static(spec.help, classes="field-help", markup=False)
        with Horizontal(classes="field"):
            yield Label("Players", classes="field-label")
            if info.min_players == info.max_players:
                yield Label(str(info.min_players), id="players-fixed")
            else:
                yield Select(
                    [(str(n), n) for n in range(info.min_players, info.max_players + 1)],
                    value=d.players,
                    allow_blank=False,
                    compact=True,
                    id="players",
                )
        kinds = d.seat_kinds()
        automated = d.automated()
        for seat, name in enumerate(d.seat_names()):
            if seat in automated:  # the game plays it: nobody to choose
                with Horizontal(classes="field"):
                    yield Label(name, classes="field-label seat-label", id=f"seat-label-{seat}")
                    yield Label(AUTOMATED_TEXT, id=f"seat-automated-{seat}", markup=False)
                continue
            with Horizontal(classes="field"):
                yield Label(name, classes="field-label seat-label", id=f"seat-label-{seat}")
                yield SeatSelect(
                    name,
                    [(shorten(f"{kind} — {d.describe_kind(kind)}", 44), kind) for kind in kinds],
                    value=d.controllers[seat],
                    allow_blank=False,
                    compact=True,
                    id=f"seat-{seat}",
                    classes="seat-select",
                )
            yield Static(
                d.describe_seat(seat), classes="field-help", id=f"seat-help-{seat}", markup=False
            )
        if d.strengths:
            # Shown only while a seat is played by the search bot (never in a
            # solitaire game a person plays): ``NewGameScreen.show_strength``.
            used = d.strength_used()
            with Horizontal(classes="field strength-field") as field:
                field.display = used
                yield Label("Bot strength", classes="field-label")
                yield Select(
                    [(strength.label, strength.kind) for strength in d.strengths],
                    value=d.strength,
                    allow_blank=False,
                    compact=True,
                    id="strength",
                )
            help_line = Static(
                "How long the tree-search (mcts) seats think before each move.",
                classes="field-help strength-field",
            )
            help_line.display = used
            yield help_line
        with Horizontal(classes="field"):
            yield Label("Seed", classes="field-label")
            yield Input(d.seed, restrict=r"[0-9]*", max_length=12, compact=True, id="seed")
        yield Static(
            "The seed fixes the dice and shuffles: note it to replay the same game.",
            classes="field-help",
        )


class NewGameScreen(ModalScreen[None]):
    BINDINGS = [
        Binding("ctrl+s", "start", "Start", priority=True),
        Binding("escape", "cancel", "Cancel"),
    ]

    def __init__(self, game_id: str | None = None) -> None:
        super().__init__()
        self._initial_game = game_id
        #: Seat kinds' one-line descriptions, by kind (a bot is made once to ask it).
        self._descriptions: dict[str, str] = {}

    # State ------------------------------------------------------------------------

    def on_mount(self) -> None:
        self.query_one("#game", Select).focus()

    def on_resize(self) -> None:
        """The form scrolls within the screen: the dialog (its title, the buttons and
        their margins, 8 rows) keeps to 90% of the rows above the footer, so every
        field of a 6-seat game is reachable at 80x24 (each scrolls into sight when
        focused)."""
        rows = int((self.size.height - 1) * 0.9) - 8
        self.query_one(NewGameForm).styles.max_height = max(rows, 3)

    def strength_used(self) -> bool:
        """Whether a seat is played by the search bot (whose strength is asked)."""
        return bool(self.strength) and self.strength in self.controllers[: self.players]

    def show_strength(self) -> None:
        for part in self.query(".strength-field"):
            part.display = self.strength_used()

    def compose(self) -> ComposeResult:
        app = tabletop(self)
        games = sorted(app.registry.games.values(), key=lambda g: g.info.title)
        game_id = self._initial_game if self._initial_game in app.registry.games else None
        self._select_game(game_id or games[0].info.id)
        self.seed = str(app.new_seed())
        with Vertical(id="new-game", classes="dialog"):
            yield Label("New game", classes="dialog-title")
            yield NewGameForm(self)
            with Horizontal(classes="buttons"):
                yield Button("Start", variant="primary", id="start")
                yield Button("Cancel", id="cancel")
        yield Footer()

    def _select_game(self, game_id: str) -> None:
        app = tabletop(self)
        self._descriptions = {}
        self.game: GameDefinition = app.registry.get(game_id).definition
        info = self.game.info
        self.options = {spec.key: spec.default for spec in info.options}
        self.players = info.min_players
        bots = app.registry.bot_kinds(game_id)
        #: The search bot's strengths this registry offers (none in a bare registry).
        self.strengths = [strength for strength in STRENGTHS if strength.kind in bots]
        default = next((s.kind for s in self.strengths if s.label == "normal"), None)
        self.strength = default or (self.strengths[0].kind if self.strengths else "")
        self.default_bot = self.strength or (bots[0] if bots else HUMAN)
        self.controllers = [HUMAN] + [self.default_bot] * (info.max_players - 1)
        self._fit_seats()

    def automated(self) -> frozenset[int]:
        """The seats the game plays itself with the options chosen."""
        return automated_seats(self.game, self.players, self.options)

    def _fit_seats(self) -> bool:
        """Give the seats the game plays itself to its procedure, and the person who
        sat on one of them the first seat left to play (the solitaire's other side).
        True when the automated seats changed."""
        automated = self.automated()
        before = frozenset(s for s, kind in enumerate(self.controllers) if kind == AUTOMATED)
        person = HUMAN in self.controllers[: self.players]
        for seat, kind in enumerate(self.controllers):
            if seat in automated:
                self.controllers[seat] = AUTOMATED
            elif kind == AUTOMATED:
                self.controllers[seat] = self.default_bot
        free = [seat for seat in range(self.players) if seat not in automated]
        if person and free and all(self.controllers[seat] != HUMAN for seat in free):
            self.controllers[free[0]] = HUMAN
        return automated != before

    def seat_kinds(self) -> list[str]:
        """Who may play a seat: a person, the search bot (its strength set once, below
        the seats), and every other bot kind."""
        app = tabletop(self)
        variants = {strength.kind for strength in self.strengths} - {self.strength}
        kinds = [k for k in app.registry.bot_kinds(self.game.info.id) if k not in variants]
        return [HUMAN, *kinds]

    def describe_seat(self, seat: int) -> str:
        return self.describe_kind(self.controllers[seat])

    def describe_kind(self, kind: str) -> str:
        """A seat kind in one line: the adapters' words for the common kinds, else the
        bot's own ``description`` (or the first line of its class's docstring)."""
        known = describe(kind)
        if kind in self._descriptions:
            return self._descriptions[kind]
        words = known
        factory = tabletop(self).registry.bots.get(kind)
        if known == describe("a bot nobody described") and factory is not None:
            try:
                bot = factory[0](self.game)
                words = str(getattr(bot, "description", "") or "")
                doc = (type(bot).__doc__ or "").strip()
                if not words and doc:
                    words = doc.splitlines()[0].strip()
            except Exception:  # a bot that cannot be made here is described generically
                words = ""
            words = words or known
        self._descriptions[kind] = words
        return words

    def seat_names(self) -> tuple[str, ...]:
        try:
            return self.game.seat_names(self.players, self.options)
        except Exception:  # a plugin bug must not break the dialog
            return tuple(f"Seat {n}" for n in range(1, self.players + 1))

    async def on_select_changed(self, event: Select.Changed) -> None:
        value: Any = event.value
        if value is Select.NULL:
            return
        widget_id = event.select.id or ""
        form = self.query_one(NewGameForm)
        if widget_id == "game" and value != self.game.info.id:
            self._select_game(value)
            form.refresh(recompose=True)
        elif widget_id == "players" and value != self.players:
            self.players = value
            self._fit_seats()
            form.refresh(recompose=True)
        elif widget_id.startswith("option-"):
            spec = self.game.info.options[int(widget_id.removeprefix("option-"))]
            self.options[spec.key] = value
            if self._fit_seats():  # a seat became the game's, or a person's again
                await form.recompose()
                self._focus(widget_id)
                return
            for seat, name in enumerate(self.seat_names()):
                for label in self.query(f"#seat-label-{seat}").results(Label):
                    label.update(name)
                for select in self.query(f"#seat-{seat}").results(SeatSelect):
                    select.seat_name = name
                    select.query_one(SelectOverlay).border_title = f"Who plays {name}?"
        elif widget_id.startswith("seat-"):
            seat = int(widget_id.removeprefix("seat-"))
            self.controllers[seat] = value
            for help_line in self.query(f"#seat-help-{seat}").results(Static):
                help_line.update(self.describe_seat(seat))
            self.show_strength()
        elif widget_id == "strength" and value != self.strength:
            old, self.strength = self.strength, value
            self.controllers = [value if kind == old else kind for kind in self.controllers]
            form.refresh(recompose=True)

    def _focus(self, widget_id: str) -> None:
        """Focus a field again after the form was rebuilt around it."""
        for widget in self.query(f"#{widget_id}"):
            widget.focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "seed":
            self.seed = event.value

    def spec(self) -> NewGameSpec:
        seed = int(self.seed) if self.seed.strip() else tabletop(self).new_seed()
        return NewGameSpec(
            game_id=self.game.info.id,
            players=self.players,
            options=dict(self.options),
            controllers=self.controllers[: self.players],
            seed=seed,
        )

    # Actions ----------------------------------------------------------------------

    def action_start(self) -> None:
        app = tabletop(self)
        session = app.start_game(self.spec())
        if session is not None:
            app.open_game(session, replace=True)

    def action_cancel(self) -> None:
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()
        else:
            self.action_cancel()
