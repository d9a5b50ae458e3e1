# Breaks "when `clock` is not `None`, play on `clock.watch(game)`": it calls clock.watch(game) but throws the result
# away and keeps playing on the game it was given (works only when that game is already a Traced one the clock
# then counts; on a plain game a NodeBudget never sees a state and never expires).
# The rule sheet binds this rule to mcts_decision, but the notebook puts the clock in mcts_search (section 6:
# "Give your mcts_search its clock"; mcts_decision only passes `clock` on), so the slip is in the mcts_search section.
# %% mcts_search
def mcts_search(game, state, iterations, rng, c=math.sqrt(2), clock=None):
    """The root Node of the tree grown by `iterations` iterations of MCTS from `state`."""
    if clock is not None:
        clock.watch(game)
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
        final = rollout(game, node.state, rng)
        # backup
        while node is not None:
            node.visits += 1
            if node.parent is not None:
                node.total += game.utility(final, node.player)
            node = node.parent
    return root
