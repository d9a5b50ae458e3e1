# %% minimax_value
def minimax_value(game, state):
    """The minimax value of `state` for the player to move there."""
    rootPlayer = game.to_move(state)

    def search(node, isMax):
        if game.is_terminal(node):
            return game.utility(node, rootPlayer)
        scores = []
        for move in game.actions(node):
            scores.append(search(game.result(node, move), not isMax))
        if isMax:
            return max(scores)
        return min(scores)

    return search(state, True)
# %% minimax_decision
def minimax_decision(game, state):
    """The first action, in actions() order, with the best minimax value for the player to move."""
    rootPlayer = game.to_move(state)

    def search(node, isMax):
        if game.is_terminal(node):
            return game.utility(node, rootPlayer)
        results = [search(game.result(node, m), not isMax) for m in game.actions(node)]
        return max(results) if isMax else min(results)

    moves = list(game.actions(state))
    values = [search(game.result(state, m), False) for m in moves]
    top = max(values)
    return moves[values.index(top)]
# %% quick_win_decision
def quick_win_decision(game, state):
    """Like minimax_decision, but a terminal state d plies below scores utility * (10 - d)."""
    rootPlayer = game.to_move(state)

    def search(node, isMax, plies):
        if game.is_terminal(node):
            return game.utility(node, rootPlayer) * (10 - plies)
        results = [search(game.result(node, m), not isMax, plies + 1) for m in game.actions(node)]
        return max(results) if isMax else min(results)

    moves = list(game.actions(state))
    values = [search(game.result(state, m), False, 1) for m in moves]
    return moves[values.index(max(values))]
