# Bug: expansion makes every child at once, then picks one by UCB1 (infinity for the unvisited).
# %% mcts_search
def mcts_search(game, state, iterations, rng, c=math.sqrt(2), clock=None):
    if clock is not None:
        game = clock.watch(game)
    root = new_node(game, state)
    done = 0
    while done < iterations:
        if clock is not None and clock.expired():
            break
        node = root
        while not node.untried and node.children:
            scores = [ucb1(ch.total, ch.visits, node.visits, c) for ch in node.children]
            node = node.children[scores.index(max(scores))]
        if node.untried:
            mover = game.to_move(node.state)
            for action in node.untried:
                node.children.append(new_node(game, game.result(node.state, action), node, action, mover))
            node.untried = []
            scores = [ucb1(ch.total, ch.visits, node.visits, c) for ch in node.children]
            node = node.children[scores.index(max(scores))]
        final = rollout(game, node.state, rng)
        while node is not None:
            node.visits += 1
            if node.player is not None:
                node.total += game.utility(final, node.player)
            node = node.parent
        done += 1
    return root
