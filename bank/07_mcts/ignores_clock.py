# Bug: the search never looks at its clock (and does not play on clock.watch(game)).
# %% mcts_search
def mcts_search(game, state, iterations, rng, c=math.sqrt(2), clock=None):
    root = new_node(game, state)
    for _ in range(iterations):
        node = root
        while not node.untried and node.children:
            scores = [ucb1(ch.total, ch.visits, node.visits, c) for ch in node.children]
            node = node.children[scores.index(max(scores))]
        if node.untried:
            action = node.untried.pop(0)
            child = new_node(game, game.result(node.state, action), node, action, game.to_move(node.state))
            node.children.append(child)
            node = child
        final = rollout(game, node.state, rng)
        while node is not None:
            node.visits += 1
            if node.player is not None:
                node.total += game.utility(final, node.player)
            node = node.parent
    return root
