# Entry value_depth_cap_nine (02_minimax), cell(s): minimax_value
# Mistake: a safety cap on the recursion: below 9 plies (the longest Tic-Tac-Toe game) a state counts as a draw, 0, though longer games (RaceTo(10, 3): up to 10 plies) go on
# First wrong step: RaceTo(10, 3) from total 0: after nine moves of 1 (total 9, P2 to move) the search returns 0 instead of -1 (P2 adds 1 and wins); the root value stays 1, so the first wrong number is at that depth-9 node
# Checked: the value helper on RaceState(9, 'P2') at depth 9 with P1 as root player, this code against my correct helper; minimax_value(race, race.initial) (1 both)

# %% minimax_value
def minimax_value(game, state):
    """The minimax value of `state` for the player to move there."""
    player = game.to_move(state)

    def value(s, depth):
        if game.is_terminal(s):
            return game.utility(s, player)
        if depth >= 9:  # no game of the lab lasts longer
            return 0
        values = [value(game.result(s, a), depth + 1) for a in game.actions(s)]
        return max(values) if game.to_move(s) == player else min(values)

    return value(state, 0)

# %% minimax_decision
def minimax_decision(game, state):
    """The first action, in actions() order, with the best minimax value for the player to move."""
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        return max(values) if game.to_move(s) == player else min(values)

    best_action, best_value = None, -math.inf
    for a in game.actions(state):
        v = value(game.result(state, a))
        if v > best_value:
            best_action, best_value = a, v
    return best_action

# %% quick_win_decision
def quick_win_decision(game, state):
    """Like minimax_decision, but a terminal state d plies below scores utility * (10 - d)."""
    player = game.to_move(state)

    def value(s, d):
        if game.is_terminal(s):
            return game.utility(s, player) * (10 - d)
        values = [value(game.result(s, a), d + 1) for a in game.actions(s)]
        return max(values) if game.to_move(s) == player else min(values)

    best_action, best_value = None, -math.inf
    for a in game.actions(state):
        v = value(game.result(state, a), 1)
        if v > best_value:
            best_action, best_value = a, v
    return best_action
