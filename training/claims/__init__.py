"""The truth of each game's hidden decisions, one module a game: ``training/claims/<game>.py``.

Two parts of ``training`` read the same hidden facts of a position: the browser app's marks of
the truth in a replay (``training/web/games/<game>.py``, ``WebGame.mark``) and the bluffing kit's
labellers (``training/bluffing/games/<game>.py``). Whether a Smuggle declaration is the complete
truth, whether a CIQ target may Fire, whether an Illegal seat holds the Magnum, which face-down
cards a Humble smuggle reveal scored, who won an Import / Export round of sealed bids: each is
decided here once, so a mark and a label can never disagree
(``tests/training/test_claims_agree.py``).

The two may not import each other (``pyproject.toml``'s import contracts: the browser app must not
need the bluffing kit's optional extras, pyarrow; the kit must not load the web server), so these
predicates sit below both: pure functions of an engine state (and the action about to be taken),
importing only the game packages and, for Import / Export, the analytics' reading of a round.
What each game's marks and labels make of them stays in their own modules.

| module               | what it reads                                                          |
|----------------------|------------------------------------------------------------------------|
| ``smuggle``          | a declaration's complete truth, a search, the last search's verdict    |
| ``ciq``              | a Fire, whether the target may Fire (or holds a face card), a smuggle  |
| ``illegal``          | the Magnum held, a trade partner able to accept                        |
| ``humble_smuggle``   | a new reveal, whether a seat's card fit the round's rule               |
| ``import_export``    | the sealed bids of a round, read on its last bid                       |
"""
