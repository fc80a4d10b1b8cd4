"""Import / Export's vocabulary: the names the rules, the powers, the encoder, the renderer, the
bot and the analytics share, declared once.

Only constants live here (it imports nothing of the game but ``data``), so every module of the
game can import it without an import cycle: action types, good types, the decision phases, the
special ship and action-type codes, and the size of a ship's observation features.
"""

from __future__ import annotations

from .data import ACTIONS, GOOD_TYPES

# ----- action types (``data.ACTIONS`` order; ``State.declared``, a card's ``action``) ----------
CONTRACT, LOAD, IMPORT, PIRATE, SUPPLY = range(len(ACTIONS))
NUM_ACTION_TYPES = len(ACTIONS)

# ----- good types, which are also the container colours (``data.GOOD_TYPES`` order) ---------------
TECHNOLOGY, AGRICULTURE, CONSUMER, LUXURY, ILLEGAL = range(len(GOOD_TYPES))
NUM_TYPES = len(GOOD_TYPES)
GREY = NUM_TYPES  # the sixth harbor's colour: no good type

# ----- decision phases, in the order of the ``phase`` observation piece --------------------------
PHASE_NAMES = (
    "lead: draw, declare an action or discard a contract",
    "two-card wild: first card",
    "two-card wild: second card",
    "two-card wild: the action",
    "follow the declared action or draw",
    "contract: choose a card",
    "contract: choose the ship",
    "load: choose a container",
    "load: choose the ship",
    "import: the leader chooses the ship",
    "import: sealed bid",
    "import: choose a container",
    "import: imports or goods",
    "pirate: take a container",
    "pirate: load it onto a ship",
    "supply: sell a card or take one from the island",
    "a power's decision (the ``power`` piece names the card)",
)
(
    P_LEAD,
    P_WILD1,
    P_WILD2,
    P_WILD_ACTION,
    P_FOLLOW,
    P_CONTRACT_CARD,
    P_CONTRACT_SHIP,
    P_LOAD_CARD,
    P_LOAD_SHIP,
    P_IMPORT_SHIP,
    P_BID,
    P_IMPORT_PICK,
    P_IMPORT_ZONE,
    P_PIRATE_TAKE,
    P_PIRATE_PLACE,
    P_SUPPLY,
    P_POWER,
) = range(len(PHASE_NAMES))
NUM_PHASES = len(PHASE_NAMES)
# The phases of an import round (the ``bidders`` and ``has_bid`` pieces are shown during them).
BIDDING_PHASES = (P_IMPORT_SHIP, P_BID, P_IMPORT_PICK, P_IMPORT_ZONE)

# ----- special codes ------------------------------------------------------------------------------
ISLAND = -1  # the "ship" of an import from the supply island (Dark Flight Games)
CHOOSE = -2  # ``State.act_as``: a Rice Cookers holder picks Load or Contract first

# ----- observation ---------------------------------------------------------------------------------
# Per ship in the ``ships`` piece: at sea; required containers per colour; loaded (or, at sea,
# carried) containers per colour; containers.
SHIP_FEATURES = 1 + 2 * NUM_TYPES + 1

# By good type: "your <colour> containers are now wild" / "your <type> contracts now have a
# rainbow load requirement".
WILD_KEYS = ("televisions", "wheat", "soap", "impalas", "big_cats")
RAINBOW_KEYS = ("generators", "coffee", "candy", "gold_watches", "seeds")
# Gaining one of these can complete a shipment already in the harbor.
MATCH_KEYS = frozenset(WILD_KEYS + RAINBOW_KEYS + ("prefab_homes", "robot_cats"))
