# fix: The message says alphabeta_decision returns a value instead of the move; I return best_action instead of alpha.
# clear: yes

# %% alphabeta_decision
def alphabeta_decision(game, state):
    '''The first best action in `state` for the player to move, by alpha-beta search.'''
    player = game.to_move(state)

    def search(s, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        if game.to_move(s) == player:
            v = -math.inf
            for a in game.actions(s):
                v = max(v, search(game.result(s, a), alpha, beta))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for a in game.actions(s):
            v = min(v, search(game.result(s, a), alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    best_action, alpha = None, -math.inf
    for a in game.actions(state):
        v = search(game.result(state, a), alpha, math.inf)
        if best_action is None or v > alpha:
            best_action, alpha = a, v
    return best_action
