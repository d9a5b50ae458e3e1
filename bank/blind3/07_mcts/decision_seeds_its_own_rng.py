# Entry decision_seeds_its_own_rng (07_mcts), cell(s): mcts_decision
# Mistake: the decision ignores the rng it is given and searches with a generator of its own, random.Random(0), 'to be reproducible': the same seed the caller chose does not give the caller's search
# First wrong step: block, 12 iterations, caller's seed 6, c = 1: the search runs on Random(0), and its root's children are (0, 1) 1/0, (0, 2) 3/1, (1, 2) 4/2, (2, 0) 1/-1, (2, 1) 3/1 instead of (0, 1) 3/-1, (0, 2) 2/0, (1, 2) 2/-1, (2, 0) 1/-1, (2, 1) 4/0: it returns (1, 2) instead of (2, 1) (with the caller's seed 0 the answers agree)
# Checked: mcts_decision(ttt, block, n, random.Random(seed), c) and the root's children of mcts_search for (40, 1, sqrt 2), (12, 6, 1), (20, 0, sqrt 2), this function against mine

# %% ucb1
def ucb1(total, visits, parent_visits, c):
    """The UCB1 score of a child: mean reward plus c times the exploration term; math.inf when unvisited."""
    if visits == 0:
        return math.inf
    return total / visits + c * math.sqrt(math.log(parent_visits) / visits)

# %% rollout
def rollout(game, state, rng):
    """Random moves, rng.choice(game.actions(s)) each, from `state` until the game ends; the final state."""
    s = state
    while not game.is_terminal(s):
        s = game.result(s, rng.choice(game.actions(s)))
    return s

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
            parent = node
            node = max(parent.children, key=lambda ch: ucb1(ch.total, ch.visits, parent.visits, c))
        # expansion
        if node.untried:
            action = node.untried.pop(0)
            child = new_node(game, game.result(node.state, action), node, action, game.to_move(node.state))
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

# %% mcts_decision
def mcts_decision(game, state, iterations, rng, c=math.sqrt(2), clock=None):
    """The action of the most visited child of the root after mcts_search (first on ties)."""
    root = mcts_search(game, state, iterations, random.Random(0), c, clock)  # a fixed seed: reproducible
    if not root.children:
        return game.actions(state)[0]
    return max(root.children, key=lambda ch: ch.visits).action
