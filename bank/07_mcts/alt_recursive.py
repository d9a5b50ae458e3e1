# Correct: one recursive function selects, expands, rolls out and backs up on the way back; rewards are
# computed once per player (a dict), the rollout uses randrange (the same draw as choice).
# %% rollout
def rollout(game, state, rng):
    while not game.is_terminal(state):
        acts = game.actions(state)
        state = game.result(state, acts[rng.randrange(len(acts))])
    return state

# %% mcts_search
def mcts_search(game, state, iterations, rng, c=math.sqrt(2), clock=None):
    if clock is not None:
        game = clock.watch(game)
    root = new_node(game, state)

    def iterate(node):
        if node.untried:
            action = node.untried.pop(0)
            child = new_node(game, game.result(node.state, action), node, action, game.to_move(node.state))
            node.children.append(child)
            final = rollout(game, child.state, rng)
            finish(child, final)
        elif node.children:
            best, best_score = None, -math.inf
            for ch in node.children:
                score = ucb1(ch.total, ch.visits, node.visits, c)
                if score > best_score:
                    best, best_score = ch, score
            final = iterate(best)
        else:
            final = node.state
        finish(node, final)
        return final

    cache = {}

    def finish(node, final):
        node.visits += 1
        if node.player is not None:
            if (final, node.player) not in cache:
                cache[(final, node.player)] = game.utility(final, node.player)
            node.total += cache[(final, node.player)]

    n = 0
    while n < iterations and not (clock is not None and clock.expired()):
        iterate(root)
        n += 1
    return root
