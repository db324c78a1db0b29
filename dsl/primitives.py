"""The effect and function library the rule language can call.

This table is the contract between the checker and the interpreter: the
checker validates every call against it (unknown name, arity, keyword
arguments, argument kinds) and the interpreter must implement every entry
(tests/test_primitives.py checks both directions).  ``says`` is the English
sentence the rulebook generator and error messages use.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Signature:
    min_args: int
    max_args: int | None          # None: any number
    kwargs: tuple[str, ...] = ()
    arg_kinds: tuple[str, ...] = ()  # per position, last one repeats: amount|expr|space|order|category|building
    says: str = ""
    context: tuple[str, ...] = field(default_factory=tuple)  # names the primitive binds for its body


# Statements that act on the game (called as `name arg, arg, key=value`).
EFFECTS: dict[str, Signature] = {
    "gain": Signature(1, None, (), ("amount",), "the acting player gains {args}"),
    "pay": Signature(1, None, (), ("amount",), "the acting player pays {args} (the option is legal only if they can)"),
    "lose": Signature(1, None, (), ("amount",), "the acting player loses {args}, never going below the minimum"),
    "nothing": Signature(0, 0, (), (), "nothing happens"),
    "pass_turn": Signature(0, 1, (), ("order",), "the acting player passes (and joins {0})"),
    "place_worker": Signature(1, 1, (), ("space",), "the acting player puts a worker on {0}"),
    "move_worker": Signature(2, 2, (), ("space", "space"), "the acting player's worker moves from {0} to {1} at no cost"),
    "return_workers": Signature(1, 1, (), ("space",), "every worker on {0} goes back to its owner"),
    "activate": Signature(1, None, (), ("space",), "each of {args} is activated in turn for the workers on it"),
    "activate_road": Signature(1, 1, (), ("expr",), "the road spaces {0} are activated in order; workers beyond come home"),
    "move_in_order": Signature(3, 3, (), ("order", "expr", "expr"), "in {0}, {1} moves to place {2}"),
    "shuffle": Signature(1, 1, (), ("order",), "{0} is shuffled"),
    "deal_tiles": Signature(2, 2, (), ("category", "expr"), "the {0} tiles are shuffled onto road spaces {1}"),
    "build_tile": Signature(1, 1, ("discount",), ("category",),
                            "the acting player may build a {0} tile, paying its cost"),
    "transform_tile": Signature(2, 2, (), ("expr", "building"), "{0} becomes a {1} of the acting player"),
    "do": Signature(1, 1, (), ("expr",), "the effect in {0} happens"),
    # zones: lists of symbols (decks, hands, ports)
    "put": Signature(2, 2, (), ("expr", "zone"), "{0} is put in {1}"),
    "take": Signature(2, 2, (), ("expr", "zone"), "{0} is taken out of {1}"),
    "move_top": Signature(3, 3, (), ("zone", "expr", "zone"), "the top {1} of {0} move to {2}"),
    "shuffle_zone": Signature(1, 1, (), ("zone",), "{0} is shuffled"),
    "clear_zone": Signature(1, 1, (), ("zone",), "{0} is emptied"),
    "swap_zones": Signature(2, 2, (), ("zone", "zone"), "{0} and {1} swap their contents"),
    "set_order": Signature(2, 2, (), ("order", "expr"), "{0} becomes {1}"),
    # pieces with values (brokers): behind a screen, in front of it, on the board
    "place_piece": Signature(5, 5, ("owner",), ("pieces", "expr", "expr", "expr", "expr"),
                             "the acting player moves a {0} of value {1} from {2} to {3}, face {4}"),
    "gather_pieces": Signature(3, 3, ("owner",), ("pieces", "expr", "expr"),
                               "every {0} on {1} goes back to its owner's {2}, face down"),
    "reveal_pieces": Signature(2, 2, (), ("pieces", "expr"), "every {0} on {1} is turned face up"),
    "show_piece": Signature(4, 4, (), ("pieces", "expr", "expr", "expr"),
                            "the acting player looks at a face-down {0} of {1} on {2}"),
    "set_piece_value": Signature(4, 4, (), ("pieces", "expr", "expr", "expr"),
                                 "the acting player's {0} of value {1} on {2} counts as {3} until it is gathered"),
    # tiles on the road beyond building them (interpreter/prims_tiles.py)
    "place_tile": Signature(2, 2, (), ("expr", "expr"), "a {0} tile from the supply is laid on road slot {1}"),
    "set_supply": Signature(2, 2, (), ("expr", "expr"), "{1} tiles of {0} are left in the supply"),
    "claim_tile": Signature(1, 1, (), ("expr",), "the acting player puts a house on {0}: it becomes theirs"),
    "flip_tile": Signature(1, 1, (), ("expr",), "{0} is turned over to its other side, keeping its owner"),
    "perform": Signature(1, 1, (), ("expr",), "the acting player uses {0} as if a worker of theirs were on it"),
    "build_on": Signature(2, 2, (), ("expr", "category"),
                          "the acting player may build a {1} tile on top of {0}, paying its cost"),
}

# Functions usable inside expressions.
FUNCTIONS: dict[str, Signature] = {
    "count": Signature(1, 1, says="the number of {0}"),
    "sum": Signature(1, 1, says="the sum of {0}"),
    "max": Signature(1, 1, says="the largest of {0}"),
    "min": Signature(1, 1, says="the smallest of {0}"),
    "abs": Signature(1, 1, says="the size of {0}"),
    "held": Signature(1, 1, says="how much of {0} the acting player has"),
    "first": Signature(1, 1, says="the first of {0}"),
    "index": Signature(2, 2, says="the place of {1} in {0}, from 0"),
    "position": Signature(2, 2, (), ("order", "expr"), says="the place (counted from 1) of {1} in {0}"),
    "occupants": Signature(1, 1, (), ("space",), says="the players with workers on {0}, in order of arrival"),
    "open_spaces": Signature(0, 0, says="the spaces where the acting player may put a worker"),
    "road_tiles": Signature(0, 0, says="the tiles on the road"),
    "owned_tiles": Signature(1, 1, says="the tiles on the road owned by {0}"),
    "multisets": Signature(2, 2, says="every way to pick {1} items from {0}, repeats allowed"),
    "rank_by": Signature(1, 1, says="the items of the rows [item, key, key...] of {0}, best first, larger keys winning"),
    "distinct": Signature(1, 1, says="{0} without repeats"),
    "combinations": Signature(2, 2, says="the different ways to pick {1} of {0}"),
    "tagged": Signature(1, 1, says="the spaces tagged {0}"),
    "has_tag": Signature(2, 2, says="whether space {0} is tagged {1}"),
    "players": Signature(0, 0, says="every player, in seat order (neutral players included)"),
    "is_neutral": Signature(1, 1, says="whether {0} is a neutral player, played by the rules"),
    "piece_values": Signature(2, 2, says="the values of the acting player's {0} on {1}"),
    "strength": Signature(2, 2, says="the total value of the acting player's {0} on {1}"),
    "piece_count": Signature(2, 2, says="how many {0} the acting player has on {1}"),
    "all_pieces_count": Signature(2, 2, says="how many {0} of all players are on {1}"),
    "all_strength": Signature(2, 2, says="the total value of every {0} on {1}"),
    "present": Signature(2, 2, says="the players with a {0} on {1}"),
    "room": Signature(2, 2, says="how many more {0} fit on {1}"),
    "hidden_pieces": Signature(2, 2, says="the face-down {0} on {1} the acting player has not seen"),
    "road_at": Signature(1, 1, says="the tile on road slot {0}, or none"),
    "slot_of": Signature(1, 1, says="the road slot of tile {0} (0 when it is not on the road)"),
    "awaited": Signature(1, 1, says="whether an effect deferred until {0} is vacant still waits for it"),
    # the whole board, for invariants (interpreter/prims_state.py)
    "all": Signature(1, 1, says="whether every item of {0} is true"),
    "spaces": Signature(0, 0, says="every space on the board"),
    "buildings": Signature(0, 0, says="every kind of building"),
    "worker_places": Signature(0, 0, says="the spaces and tiles holding workers now"),
    "placed_workers": Signature(1, 1, says="how many workers {0} has on spaces and tiles"),
    "supply": Signature(1, 1, says="how many tiles of {0} are left beside the board (unlimited: -1)"),
    "piece_total": Signature(1, 1, says="how many {0} the acting player has, wherever they are"),
}

# The face a piece is laid with (`place_piece`'s last argument), as the interpreter reads it: `up`,
# `down`, or `keep` (as it was).  They are symbols the game declares (`enum faces up, down, keep`).
PIECE_FACES = ("up", "down", "keep")
FACE_ARGUMENT = {"place_piece": 4}          # the index of the face among a primitive's arguments

# Names that are always defined.  Context names exist only where a primitive binds them.
# A resource's name is the resource itself (a symbol); `held(food)` is the amount.
CONSTANTS = {"none": None, "yes": True, "no": False, "unlimited": -1}
CONTEXT_NAMES = {
    "player": "the acting player",
    "target": "the space a trigger's event concerns",
    "slot": "the place of the worker being activated, from 1",
    "self": "the space or tile being activated",
    "worker": "the player whose worker is on the tile (in an owner's bonus)",
    "round": "the number of the current round, from 1",
    "player_count": "the number of players",
}

# Events the engine emits, for `trigger NAME on EVENT:`; each binds these names.
EVENTS = {
    "worker_placed": ("player", "target"),
    "tile_built": ("player", "target"),
    "piece_placed": ("player", "target"),
    # The game's flow: `target` is the round's number, the phase's or the step's name; `player` is
    # none (a trigger acts through `each player ...` or `as ...`).
    "round_start": ("player", "target"),
    "round_end": ("player", "target"),
    "phase_start": ("player", "target"),
    "phase_end": ("player", "target"),
    "step_start": ("player", "target"),
    "step_end": ("player", "target"),
}

# Tile and space attributes readable as `t.NAME`.
ATTRIBUTES = {"owner", "kind", "category", "income", "prestige", "transformable", "workable", "slot", "title", "other_side"}
# A space's room, read by invariants (`x.slots` is -1 for unlimited).
ATTRIBUTES |= {"slots", "per_player"}
