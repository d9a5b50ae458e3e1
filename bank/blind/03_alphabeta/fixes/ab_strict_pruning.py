# fix: The message says the course prunes on equality too; in alphabeta_value I changed the cut-off tests to v >= beta (MAX) and v <= alpha (MIN).
# clear: yes
# %% minimax_from_lab_02
def minimax_value(game, state):
    me = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, me)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        return max(values) if game.to_move(s) == me else min(values)

    return value(state)

def minimax_decision(game, state):
    me = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, me)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        return max(values) if game.to_move(s) == me else min(values)

    best, best_v = None, -math.inf
    for a in game.actions(state):
        v = value(game.result(state, a))
        if v > best_v:
            best, best_v = a, v
    return best

# %% alphabeta_value
def alphabeta_value(game, state, alpha=-math.inf, beta=math.inf):
    '''The value of `state` for the player to move there, by fail-soft alpha-beta search.'''
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

    return search(state, alpha, beta)

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
