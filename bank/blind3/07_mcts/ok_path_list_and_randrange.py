# Entry ok_path_list_and_randrange (07_mcts), cell(s): none
# Mistake: none
# First wrong step: none
# Alternative (ucb1, rollout, mcts_search, mcts_decision): ucb1 written as mean + c * sqrt(ln N) / sqrt(n); rollout draws rng.randrange(len(actions)) and indexes (the same single draw as rng.choice); mcts_search keeps the path of the iteration in a list, picks the child by an index scan with a strict >, and backs up along the reversed path; mcts_decision scans the children for the first largest visit count
# Checked: the visible tests under nbconvert (all pass); against my base version: the same generated states, the same next random number afterwards, and the same (action, visits, total) at every node on the small tree (2, 4, 6 iterations, seed 1), win_now (30 and 200 iterations), block (0, 4, 8, ..., 60 iterations, seeds 0-6, c = 1 and sqrt(2)) and Connect Four (100 iterations, seeds 0-2), with NodeBudget clocks of 0, 1, 60 and 200 states; the same decisions on block for 0-40 iterations and seeds 0-6

# %% ucb1
def ucb1(total, visits, parent_visits, c):
    """The UCB1 score of a child: mean reward plus c times the exploration term; math.inf when unvisited."""
    if not visits:
        return math.inf
    mean = total / visits
    explore = math.sqrt(math.log(parent_visits)) / math.sqrt(visits)
    return mean + c * explore

# %% rollout
def rollout(game, state, rng):
    """Random moves, rng.choice(game.actions(s)) each, from `state` until the game ends; the final state."""
    while not game.is_terminal(state):
        moves = game.actions(state)
        state = game.result(state, moves[rng.randrange(len(moves))])  # one draw, as rng.choice makes
    return state

# %% mcts_search
def mcts_search(game, state, iterations, rng, c=math.sqrt(2), clock=None):
    """The root Node of the tree grown by `iterations` iterations of MCTS from `state`."""
    play = game if clock is None else clock.watch(game)
    root = new_node(play, state)
    done = 0
    while done < iterations and not (clock is not None and clock.expired()):
        path = [root]
        while not path[-1].untried and path[-1].children:
            here = path[-1]
            best = 0
            scores = [ucb1(ch.total, ch.visits, here.visits, c) for ch in here.children]
            for k in range(1, len(scores)):
                if scores[k] > scores[best]:
                    best = k
            path.append(here.children[best])
        leaf = path[-1]
        if leaf.untried:
            action = leaf.untried.pop(0)
            mover = play.to_move(leaf.state)
            grown = new_node(play, play.result(leaf.state, action), leaf, action, mover)
            leaf.children.append(grown)
            path.append(grown)
        end = rollout(play, path[-1].state, rng)
        for node in reversed(path):
            node.visits += 1
            if node is not root:
                node.total += play.utility(end, node.player)
        done += 1
    return root

# %% mcts_decision
def mcts_decision(game, state, iterations, rng, c=math.sqrt(2), clock=None):
    """The action of the most visited child of the root after mcts_search (first on ties)."""
    root = mcts_search(game, state, iterations, rng, c, clock)
    choice, most = game.actions(state)[0], -1
    for child in root.children:
        if child.visits > most:
            choice, most = child.action, child.visits
    return choice
