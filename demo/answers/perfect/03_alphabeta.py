# %% minimax_from_lab_02
def minimax_value(game, state):
    # Paste your lab 02 function here.
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        return max(values) if game.to_move(s) == player else min(values)

    return value(state)


def minimax_decision(game, state):
    # Paste your lab 02 function here.
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        return max(values) if game.to_move(s) == player else min(values)

    best_action, best_value = None, -math.inf
    for a in game.actions(state):
        v = value(game.result(state, a))
        if best_action is None or v > best_value:
            best_action, best_value = a, v
    return best_action

# %% alphabeta_value
def alphabeta_value(game, state, alpha=-math.inf, beta=math.inf):
    '''The value of `state` for the player to move there, by fail-soft alpha-beta search.'''
    player = game.to_move(state)

    def search(s, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        if game.to_move(s) == player:            # a MAX node
            v = -math.inf
            for a in game.actions(s):
                v = max(v, search(game.result(s, a), alpha, beta))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf                              # a MIN node
        for a in game.actions(s):
            v = min(v, search(game.result(s, a), alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    return search(state, alpha, beta)

# %% alphabeta_decision
def alphabeta_decision(game, state):
    '''The first best action in `state` for the player to move, by alpha-beta search.'''
    best_action, alpha = None, -math.inf
    for a in game.actions(state):
        # the child's value for the opponent, asked with the mirrored window (-inf, -alpha)
        v = -alphabeta_value(game, game.result(state, a), -math.inf, -alpha)
        if best_action is None or v > alpha:
            best_action, alpha = a, v
    return best_action

