# Breaks "go to the child with the largest `ucb1(child.total, child.visits, node.visits, c)`": the parent visits
# passed to ucb1 are the root's visits (the iterations so far) at every depth, not the visits of the node selecting.
# %% mcts_search
def mcts_search(game, state, iterations, rng, c=math.sqrt(2), clock=None):
    """The root Node of the tree grown by `iterations` iterations of MCTS from `state`."""
    if clock is not None:
        game = clock.watch(game)
    root = new_node(game, state)
    for _ in range(iterations):
        if clock is not None and clock.expired():
            break
        node = root
        # selection
        while not node.untried and node.children:
            best, best_score = None, -math.inf
            for child in node.children:
                score = ucb1(child.total, child.visits, root.visits, c)
                if best is None or score > best_score:
                    best, best_score = child, score
            node = best
        # expansion
        if node.untried:
            action = node.untried.pop(0)
            child_state = game.result(node.state, action)
            child = new_node(game, child_state, node, action, game.to_move(node.state))
            node.children.append(child)
            node = child
        # rollout
        final = rollout(game, node.state, rng)
        # backup
        while node is not None:
            node.visits += 1
            if node.parent is not None:
                node.total += game.utility(final, node.player)
            node = node.parent
    return root
