# Bug: the loop runs while done <= iterations, one iteration too many. The clock is asked before each iteration
# as it should be: only the search groups may lose points (the clock group compares with this same search).
# %% mcts_search
def mcts_search(game, state, iterations, rng, c=math.sqrt(2), clock=None):
    if clock is not None:
        game = clock.watch(game)
    root = new_node(game, state)
    done = 0
    while done <= iterations:
        if clock is not None and clock.expired():
            break
        node = root
        while not node.untried and node.children:
            scores = [ucb1(ch.total, ch.visits, node.visits, c) for ch in node.children]
            node = node.children[scores.index(max(scores))]
        if node.untried:
            action = node.untried.pop(0)
            child = new_node(game, game.result(node.state, action), node, action, game.to_move(node.state))
            node.children.append(child)
            node = child
        final = rollout(game, node.state, rng)
        while node is not None:
            node.visits += 1
            if node.player is not None:
                node.total += game.utility(final, node.player)
            node = node.parent
        done += 1
    return root
