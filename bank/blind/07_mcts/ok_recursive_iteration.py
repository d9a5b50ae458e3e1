# Entry ok_recursive_iteration (07_mcts), cell(s): mcts_search, mcts_decision
# Mistake: none: correct; one iteration is a recursive function (select/expand on the way down, backup on the way back), the selection argmax is an explicit loop with `>`, and the decision uses max() with key (first of equals)
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
    while not game.is_terminal(state):
        state = game.result(state, rng.choice(game.actions(state)))
    return state

# %% mcts_search
def mcts_search(game, state, iterations, rng, c=math.sqrt(2), clock=None):
    """The root Node of the tree grown by `iterations` iterations of MCTS from `state`."""
    if clock is not None:
        game = clock.watch(game)
    root = new_node(game, state)

    def iterate(node):
        # returns the final state of the rollout; updates node and below
        if node.untried:
            a = node.untried.pop(0)
            child = new_node(game, game.result(node.state, a), node, a, game.to_move(node.state))
            node.children.append(child)
            final = rollout(game, child.state, rng)
            child.visits += 1
            child.total += game.utility(final, child.player)
        elif node.children:
            best, best_score = None, -math.inf
            for ch in node.children:
                score = ucb1(ch.total, ch.visits, node.visits, c)
                if best is None or score > best_score:
                    best, best_score = ch, score
            final = iterate(best)
        else:
            final = rollout(game, node.state, rng)  # a terminal node: nothing to expand
        if node.parent is not None:
            node.total += game.utility(final, node.player)
        node.visits += 1
        return final

    done = 0
    while done < iterations and not (clock is not None and clock.expired()):
        iterate(root)
        done += 1
    return root

# %% mcts_decision
def mcts_decision(game, state, iterations, rng, c=math.sqrt(2), clock=None):
    """The action of the most visited child of the root after mcts_search (first on ties)."""
    root = mcts_search(game, state, iterations, rng, c, clock)
    if not root.children:
        return game.actions(state)[0]
    return max(root.children, key=lambda ch: ch.visits).action
