# fix: the message shows my negamax negated leaf utilities taken for the root player (utility(L.0, 'MAX') = 3 gave -3); in negamax a leaf must be scored for the player to move there, so the leaf now uses utility(s, game.to_move(s)).
# clear: partly

# %% minimax_value
def minimax_value(game, state):
    """The minimax value of `state` for the player to move there."""
    root_player = game.to_move(state)

    def negamax(s):
        if game.is_terminal(s):
            return game.utility(s, game.to_move(s))
        return max(-negamax(game.result(s, a)) for a in game.actions(s))

    return negamax(state)
