# Entry ok_max_value_min_value_and_countdown (02_minimax), cell(s): none
# Mistake: none
# First wrong step: none
# Alternative (minimax_value, minimax_decision, quick_win_decision): minimax_value as AIMA's two mutually recursive MAX-VALUE / MIN-VALUE functions; minimax_decision collects the children's values and takes the index of the first maximum; quick_win_decision passes down the remaining score (9 at the root's children, one less per ply) instead of the depth
# Checked: the visible tests of the release notebook under nbconvert (all pass); value and decision equal to my plain version on every RaceTo(10, 3) total for P1 and P2, on the 16-leaf, 8-leaf, AIMA and tie trees and on every Nim start of section 2

# %% minimax_value
def minimax_value(game, state):
    """The minimax value of `state` for the player to move there."""
    me = game.to_move(state)

    def max_value(s):
        if game.is_terminal(s):
            return game.utility(s, me)
        v = -math.inf
        for a in game.actions(s):
            child = game.result(s, a)
            v = max(v, max_value(child) if game.to_move(child) == me else min_value(child))
        return v

    def min_value(s):
        if game.is_terminal(s):
            return game.utility(s, me)
        v = math.inf
        for a in game.actions(s):
            child = game.result(s, a)
            v = min(v, max_value(child) if game.to_move(child) == me else min_value(child))
        return v

    return max_value(state)

# %% minimax_decision
def minimax_decision(game, state):
    """The first action, in actions() order, with the best minimax value for the player to move."""
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        return max(values) if game.to_move(s) == player else min(values)

    actions = game.actions(state)
    values = [value(game.result(state, a)) for a in actions]
    return actions[values.index(max(values))]

# %% quick_win_decision
def quick_win_decision(game, state):
    """Like minimax_decision, but a terminal state d plies below scores utility * (10 - d)."""
    me = game.to_move(state)

    def score(s, left):
        # `left` is 10 - d: it starts at 9 for the root's children and drops by one per ply
        if game.is_terminal(s):
            return game.utility(s, me) * left
        scores = [score(game.result(s, a), left - 1) for a in game.actions(s)]
        return max(scores) if game.to_move(s) == me else min(scores)

    best = None
    for a in game.actions(state):
        sc = score(game.result(state, a), 9)
        if best is None or sc > best[0]:
            best = (sc, a)
    return best[1]
