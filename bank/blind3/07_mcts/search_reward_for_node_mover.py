# Entry search_reward_for_node_mover (07_mcts), cell(s): mcts_search
# Mistake: the backup adds the utility for the player TO MOVE at each node (game.to_move(node.state)) instead of for the player who moved into it (node.player), so every total is from the wrong side and each player selects the moves that are best for the opponent
# First wrong step: small tree [[1, -1], [0, 0]], seed 1: the first iteration expands P2.0 and its rollout ends at L.0 (+1 for MAX); P2.0's total becomes -1 (MIN's view, MIN being to move at P2.0) instead of +1; after 3 iterations the root's children are (0, 1, -1), (1, 2, 0) instead of (0, 2, 2), (1, 1, 0)
# Checked: mcts_search(small, small.initial, n, random.Random(1)) for n = 1, 2, 6, this function against mine (totals of the root's children)

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
                node.total += game.utility(final, game.to_move(node.state))
            node = node.parent
    return root

# %% mcts_decision
def mcts_decision(game, state, iterations, rng, c=math.sqrt(2), clock=None):
    """The action of the most visited child of the root after mcts_search (first on ties)."""
    root = mcts_search(game, state, iterations, rng, c, clock)
    if not root.children:
        return game.actions(state)[0]
    return max(root.children, key=lambda ch: ch.visits).action
