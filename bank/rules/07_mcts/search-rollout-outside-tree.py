# Breaks "The states of the rollout are not added to the tree": the rollout is written inline and each random move
# (still rng.choice(game.actions(s)), one draw per move) adds its state as a node, so the whole playout joins the
# tree and is backed up. Cannot be broken alone: it also breaks search-one-child ("One new node per iteration").
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
                score = ucb1(child.total, child.visits, node.visits, c)
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
        while not game.is_terminal(node.state):
            action = rng.choice(game.actions(node.state))
            node.untried.remove(action)
            child = new_node(game, game.result(node.state, action), node, action, game.to_move(node.state))
            node.children.append(child)
            node = child
        final = node.state
        # backup
        while node is not None:
            node.visits += 1
            if node.parent is not None:
                node.total += game.utility(final, node.player)
            node = node.parent
    return root
