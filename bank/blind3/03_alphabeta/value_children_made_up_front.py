# Entry value_children_made_up_front (03_alphabeta), cell(s): alphabeta_value
# Mistake: each node makes all its children (a list of game.result for every action) before searching the first one, instead of making a child only when it is about to be searched: the values and cuts are right, but pruned children are still generated and the order of the calls is wrong
# First wrong step: tree [[3, 5], [6, 9]]: at the root both P2.0 and P2.1 are generated before P2.0 is searched; the second call of result is (P1.0, 1) where the correct search makes (P2.0, 0) -> L.0
# Checked: the generate events of Traced(GameTree.from_nested([[3, 5], [6, 9]])) for this function and for mine

# %% minimax_from_lab_02
def minimax_value(game, state):
    """The minimax value of `state` for the player to move there."""
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        return max(values) if game.to_move(s) == player else min(values)

    return value(state)


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

# %% alphabeta_value
def alphabeta_value(game, state, alpha=-math.inf, beta=math.inf):
    '''The value of `state` for the player to move there, by fail-soft alpha-beta search.'''
    player = game.to_move(state)

    def value(s, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        children = [game.result(s, a) for a in game.actions(s)]
        if game.to_move(s) == player:
            v = -math.inf
            for child in children:
                v = max(v, value(child, alpha, beta))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for child in children:
            v = min(v, value(child, alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    return value(state, alpha, beta)

# %% alphabeta_decision
def alphabeta_decision(game, state):
    '''The first best action in `state` for the player to move, by alpha-beta search.'''
    player = game.to_move(state)

    def value(s, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        if game.to_move(s) == player:
            v = -math.inf
            for a in game.actions(s):
                v = max(v, value(game.result(s, a), alpha, beta))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for a in game.actions(s):
            v = min(v, value(game.result(s, a), alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    best_action, best_value = None, -math.inf
    for a in game.actions(state):
        v = value(game.result(state, a), best_value, math.inf)
        if v > best_value:
            best_action, best_value = a, v
    return best_action
