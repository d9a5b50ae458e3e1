# %% minimax_value
def minimax_value(game, state):
    """The minimax value of `state` for the player to move there."""
    # remember who is at the root: every leaf is scored for them
    rootPlayer = game.to_move(state)

    def search(node, isMax):
        # a finished game: its utility for the root player
        if game.is_terminal(node):
            return game.utility(node, rootPlayer)
        scores = []
        # look at every child, in the order the game gives them
        for move in game.actions(node):
            scores.append(search(game.result(node, move), not isMax))
        # MAX takes the largest, MIN the smallest
        if isMax:
            return max(scores)
        return min(scores)

    # the root is a MAX node
    return search(state, True)
# %% minimax_decision
def minimax_decision(game, state):
    """The first action, in actions() order, with the best minimax value for the player to move."""
    rootPlayer = game.to_move(state)  # the player we choose for

    def search(node, isMax):
        if game.is_terminal(node):
            return game.utility(node, rootPlayer)  # leaf
        results = [search(game.result(node, m), not isMax) for m in game.actions(node)]
        return max(results) if isMax else min(results)  # back the values up

    # value of each move: the opponent (MIN) moves next
    moves = list(game.actions(state))
    values = [search(game.result(state, m), False) for m in moves]
    top = max(values)
    # index() finds the first best move, as the rules ask
    return moves[values.index(top)]
# %% quick_win_decision
def quick_win_decision(game, state):
    """Like minimax_decision, but a terminal state d plies below scores utility * (10 - d)."""
    rootPlayer = game.to_move(state)

    def search(node, isMax, plies):
        # sooner wins are worth more: multiply by (10 - plies)
        if game.is_terminal(node):
            return game.utility(node, rootPlayer) * (10 - plies)
        results = [search(game.result(node, m), not isMax, plies + 1) for m in game.actions(node)]
        return max(results) if isMax else min(results)

    moves = list(game.actions(state))
    # one ply below the root already
    values = [search(game.result(state, m), False, 1) for m in moves]
    return moves[values.index(max(values))]
