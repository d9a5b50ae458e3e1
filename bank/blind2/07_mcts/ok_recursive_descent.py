# Entry ok_recursive_descent (07_mcts), cell(s): none
# Mistake: none
# First wrong step: none

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
    """One iteration as a recursive descent that returns the final state of its rollout."""
    if clock is not None:
        game = clock.watch(game)
    root = new_node(game, state)

    def iterate(node):
        if node.untried:
            action = node.untried.pop(0)
            child = new_node(game, game.result(node.state, action), node, action, game.to_move(node.state))
            node.children.append(child)
            final = rollout(game, child.state, rng)
            child.visits += 1
            child.total += game.utility(final, child.player)
        elif node.children:
            scores = [ucb1(ch.total, ch.visits, node.visits, c) for ch in node.children]
            child = node.children[scores.index(max(scores))]
            final = iterate(child)
        else:
            final = rollout(game, node.state, rng)
            return final
        return final

    def count(node, final):
        node.visits += 1
        if node.parent is not None:
            node.total += game.utility(final, node.player)

    done = 0
    while done < iterations and not (clock is not None and clock.expired()):
        # descend, remembering the path, then count every node but the new leaf (counted in iterate)
        path, node = [root], root
        while not node.untried and node.children:
            scores = [ucb1(ch.total, ch.visits, node.visits, c) for ch in node.children]
            node = node.children[scores.index(max(scores))]
            path.append(node)
        before = len(node.children)
        final = iterate(node)
        if len(node.children) > before:          # a child was expanded and counted already
            for n in path:
                count(n, final)
        else:                                     # terminal node: count the whole path
            for n in path:
                count(n, final)
        done += 1
    return root

# %% mcts_decision
def mcts_decision(game, state, iterations, rng, c=math.sqrt(2), clock=None):
    """max() keeps the first of equal maxima, which is the tie rule."""
    root = mcts_search(game, state, iterations, rng, c, clock)
    return max(root.children, key=lambda ch: ch.visits).action if root.children else game.actions(state)[0]
