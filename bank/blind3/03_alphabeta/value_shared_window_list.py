# Entry value_shared_window_list (03_alphabeta), cell(s): alphabeta_value
# Mistake: the window is one list [alpha, beta] handed to every child by reference, so a child that raises alpha or lowers beta changes its parent's window too (and its siblings'): bounds found deep in one subtree leak into the rest of the search
# First wrong step: 16-leaf tree: P2.2 lowers the one shared beta to 6, so its parent P1.1 (which should still have beta +inf) sees 6 >= 6 and stops after P2.2, and L.2 = 2 and L.3 = 8 are never evaluated; leaves 7 6 8 7 and value 6 instead of 7 6 2 8 7 0 7 8 8 8 and 7
# Checked: the 16-leaf tree traced with this function and with mine, comparing the leaves evaluated

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

    def value(s, window):
        if game.is_terminal(s):
            return game.utility(s, player)
        if game.to_move(s) == player:
            v = -math.inf
            for a in game.actions(s):
                v = max(v, value(game.result(s, a), window))
                if v >= window[1]:
                    return v
                window[0] = max(window[0], v)
            return v
        v = math.inf
        for a in game.actions(s):
            v = min(v, value(game.result(s, a), window))
            if v <= window[0]:
                return v
            window[1] = min(window[1], v)
        return v

    return value(state, [alpha, beta])

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
