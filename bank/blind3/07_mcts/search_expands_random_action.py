# Entry search_expands_random_action (07_mcts), cell(s): mcts_search
# Mistake: expansion takes a random untried action, rng.choice(node.untried), instead of the first one: the tree grows in another order and the extra draws shift every later rollout
# First wrong step: small tree, seed 1: the first two expansions happen to draw the first action (P2.0, then P2.1, the only one left); the third, below P2.0, draws action 1 and generates L.1 instead of L.0, so P2.0's total is 0 instead of 2 after 3 iterations
# Checked: the generated states and root children of Traced(small) after 1-3 iterations with seed 1, this function against mine

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
            action = rng.choice(node.untried)
            node.untried.remove(action)
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
    root = mcts_search(game, state, iterations, rng, c, clock)
    if not root.children:
        return game.actions(state)[0]
    return max(root.children, key=lambda ch: ch.visits).action
