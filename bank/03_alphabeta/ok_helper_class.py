# Correct, with a helper class that keeps the game, the player and a node counter, and
# one method for both kinds of node. Expected: full marks.

# %% alphabeta_value
import math


class AlphaBeta:
    def __init__(self, game, player):
        self.game = game
        self.player = player
        self.nodes = 0

    def value(self, state, alpha, beta):
        self.nodes += 1
        if self.game.is_terminal(state):
            return self.game.utility(state, self.player)
        maximizing = self.game.to_move(state) == self.player
        best = -math.inf if maximizing else math.inf
        for action in self.game.actions(state):
            v = self.value(self.game.result(state, action), alpha, beta)
            if maximizing:
                best = max(best, v)
                alpha = max(alpha, best)
            else:
                best = min(best, v)
                beta = min(beta, best)
            if (maximizing and best >= beta) or (not maximizing and best <= alpha):
                break
        return best

    def decide(self, state):
        best_action, alpha = None, -math.inf
        for action in self.game.actions(state):
            v = self.value(self.game.result(state, action), alpha, math.inf)
            if best_action is None or v > alpha:
                best_action, alpha = action, v
        return best_action


def alphabeta_value(game, state, alpha=-math.inf, beta=math.inf):
    return AlphaBeta(game, game.to_move(state)).value(state, alpha, beta)

# %% alphabeta_decision
def alphabeta_decision(game, state):
    return AlphaBeta(game, game.to_move(state)).decide(state)
