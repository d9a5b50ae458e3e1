# fix: the message says each move must be searched once and its value kept in a variable instead of searched again; I store value(game.result(s, a)) in v before comparing.
# clear: yes

# %% minimax_value
def minimax_value(game, state):
    """The minimax value of `state` for the player to move there."""
    me = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, me)
        if game.to_move(s) == me:
            best = -math.inf
            for a in game.actions(s):
                v = value(game.result(s, a))
                if v > best:
                    best = v
        else:
            best = math.inf
            for a in game.actions(s):
                v = value(game.result(s, a))
                if v < best:
                    best = v
        return best

    return value(state)
