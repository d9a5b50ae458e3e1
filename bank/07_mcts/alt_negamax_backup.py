# Correct: the utility is asked once per iteration, for the player who moved into the new node, and its
# sign flips at each level on the way up (two players, zero-sum); ties in selection kept by a strict >.
# %% mcts_search
def mcts_search(game, state, iterations, rng, c=math.sqrt(2), clock=None):
    if clock is not None:
        game = clock.watch(game)
    root = new_node(game, state)
    for _ in range(iterations):
        if clock is not None and clock.expired():
            break
        node = root
        while not node.untried and node.children:
            best = node.children[0]
            best_score = ucb1(best.total, best.visits, node.visits, c)
            for ch in node.children[1:]:
                score = ucb1(ch.total, ch.visits, node.visits, c)
                if score > best_score:
                    best, best_score = ch, score
            node = best
        if node.untried:
            action = node.untried.pop(0)
            node.children.append(new_node(game, game.result(node.state, action), node, action,
                                          game.to_move(node.state)))
            node = node.children[-1]
        final = rollout(game, node.state, rng)
        reward = game.utility(final, node.player) if node.player is not None else 0
        while node is not None:
            node.visits += 1
            if node.player is not None:
                node.total += reward
            reward = -reward
            node = node.parent
    return root

# %% mcts_decision
def mcts_decision(game, state, iterations, rng, c=math.sqrt(2), clock=None):
    root = mcts_search(game, state, iterations, rng, c, clock)
    if not root.children:
        return game.actions(state)[0]
    return max(root.children, key=lambda ch: ch.visits).action
