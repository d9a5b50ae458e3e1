# fix: the message shows a node's window changing after a child returned (P1.1 left with (6, inf) cut its siblings), so the window list was shared down the recursion; each child now gets its own copy of the window.
# clear: partly

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
                v = max(v, value(game.result(s, a), list(window)))
                if v >= window[1]:
                    return v
                window[0] = max(window[0], v)
            return v
        v = math.inf
        for a in game.actions(s):
            v = min(v, value(game.result(s, a), list(window)))
            if v <= window[0]:
                return v
            window[1] = min(window[1], v)
        return v

    return value(state, [alpha, beta])
