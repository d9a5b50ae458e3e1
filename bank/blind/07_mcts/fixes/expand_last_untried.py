# fix: The message says expansion must take the first untried action, mine took the last; I now pop(0).
# clear: yes

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
        while not node.untried and node.children:
            parent = node
            node = max(parent.children, key=lambda ch: ucb1(ch.total, ch.visits, parent.visits, c))

        if node.untried:
            action = node.untried.pop(0)
            child = new_node(game, game.result(node.state, action), node, action, game.to_move(node.state))
            node.children.append(child)
            node = child

        final = rollout(game, node.state, rng)

        while node is not None:
            node.visits += 1
            if node.parent is not None:
                node.total += game.utility(final, node.player)
            node = node.parent
    return root
