# %% minimax_value
def minimax_value(game, state):
    """The minimax value of `state` for the player to move there."""
    root_side = game.to_move(state)

    def best_for_root(pos):
        if game.is_terminal(pos):
            return game.utility(pos, root_side)
        acc = float("-inf")
        for mv in game.actions(pos):
            acc = max(acc, best_for_rival(game.result(pos, mv)))
        return acc

    def best_for_rival(pos):
        if game.is_terminal(pos):
            return game.utility(pos, root_side)
        acc = float("inf")
        for mv in game.actions(pos):
            acc = min(acc, best_for_root(game.result(pos, mv)))
        return acc

    return best_for_root(state)
# %% minimax_decision
def minimax_decision(game, state):
    """The first action, in actions() order, with the best minimax value for the player to move."""
    root_side = game.to_move(state)

    def evaluate(pos):
        if game.is_terminal(pos):
            return game.utility(pos, root_side)
        outcomes = [evaluate(game.result(pos, mv)) for mv in game.actions(pos)]
        return max(outcomes) if game.to_move(pos) == root_side else min(outcomes)

    pick, pick_score = None, float("-inf")
    for mv in game.actions(state):
        acc = evaluate(game.result(state, mv))
        if acc > pick_score:
            pick, pick_score = mv, acc
    return pick
# %% quick_win_decision
def quick_win_decision(game, state):
    """Like minimax_decision, but a terminal state d plies below scores utility * (10 - d)."""
    root_side = game.to_move(state)

    def evaluate(pos, ply):
        if game.is_terminal(pos):
            return game.utility(pos, root_side) * (10 - ply)
        outcomes = [evaluate(game.result(pos, mv), ply + 1) for mv in game.actions(pos)]
        return max(outcomes) if game.to_move(pos) == root_side else min(outcomes)

    pick, pick_score = None, float("-inf")
    for mv in game.actions(state):
        acc = evaluate(game.result(state, mv), 1)
        if acc > pick_score:
            pick, pick_score = mv, acc
    return pick
