# Entry ok_path_list (07_mcts), cell(s): none
# Mistake: none
# First wrong step: none

# %% ucb1
def ucb1(total, visits, parent_visits, c):
    """UCB1 with the exploration term computed first."""
    if not visits:
        return float("inf")
    explore = math.sqrt(math.log(parent_visits) / visits) if parent_visits > 1 else 0.0
    return total / visits + c * explore

# %% rollout
def rollout(game, state, rng):
    """The rollout written as a for-ever loop with a break."""
    while True:
        if game.is_terminal(state):
            return state
        moves = game.actions(state)
        state = game.result(state, rng.choice(moves))

# %% mcts_search
def mcts_search(game, state, iterations, rng, c=math.sqrt(2), clock=None):
    """MCTS keeping the path of each iteration in a list, backed up in reverse."""
    g = game if clock is None else clock.watch(game)
    root = new_node(g, state)
    for _ in range(iterations):
        if clock and clock.expired():
            break
        path = [root]
        while not path[-1].untried and path[-1].children:
            here = path[-1]
            best, best_score = None, -math.inf
            for ch in here.children:
                score = ucb1(ch.total, ch.visits, here.visits, c)
                if best is None or score > best_score:
                    best, best_score = ch, score
            path.append(best)
        leaf = path[-1]
        if leaf.untried:
            a = leaf.untried.pop(0)
            mover = g.to_move(leaf.state)
            new = new_node(g, g.result(leaf.state, a), leaf, a, mover)
            leaf.children.append(new)
            path.append(new)
        final = rollout(g, path[-1].state, rng)
        for n in reversed(path):
            n.visits += 1
            if n is not root:
                n.total += g.utility(final, n.player)
    return root

# %% mcts_decision
def mcts_decision(game, state, iterations, rng, c=math.sqrt(2), clock=None):
    """The action of the most visited child of the root after mcts_search (first on ties)."""
    root = mcts_search(game, state, iterations, rng, c, clock)
    if not root.children:
        return game.actions(state)[0]
    best = root.children[0]
    for child in root.children[1:]:
        if child.visits > best.visits:
            best = child
    return best.action
