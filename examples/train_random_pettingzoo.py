"""Train and evaluate a simple agent on Caylus through the PettingZoo AEC environment.

    pip install -e .[pettingzoo]
    python examples/train_random_pettingzoo.py --train 40 --eval 20

The agent is deliberately tiny: a softmax over the action catalogue with one
learned preference per action (no use of the observation vector), trained with
REINFORCE on the final rank reward while it plays seat 0 against random
opponents.  It learns which kinds of moves pay in Caylus (placing on production
buildings, delivering to the castle) and which do not.  Evaluation plays it,
frozen, against three random agents and prints its mean reward and win rate
next to a uniformly random agent's in the same seat.  Swap in your own policy
(``act(observation, mask) -> action``) to evaluate something better.
"""
from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from provost.adapters.pettingzoo_env import env as make_env  # noqa: E402


class RandomPolicy:
    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)

    def act(self, observation, mask):
        legal = np.flatnonzero(mask)
        return int(self.rng.choice(legal))


class PreferencePolicy:
    """softmax(preferences[legal]) with REINFORCE updates from the episode's final reward."""

    def __init__(self, n_actions, seed, lr=0.05):
        self.prefs = np.zeros(n_actions)
        self.rng = np.random.default_rng(seed)
        self.lr = lr
        self.trace = []
        self.baseline = 0.0

    def act(self, observation, mask):
        legal = np.flatnonzero(mask)
        z = self.prefs[legal] - self.prefs[legal].max()
        p = np.exp(z) / np.exp(z).sum()
        i = int(self.rng.choice(len(legal), p=p))
        self.trace.append((legal, p, i))
        return int(legal[i])

    def learn(self, reward):
        adv = reward - self.baseline
        self.baseline += 0.1 * (reward - self.baseline)
        for legal, p, i in self.trace:
            grad = -p
            grad[i] += 1.0
            self.prefs[legal] += self.lr * adv * grad
        self.trace = []


def play(e, policies, seed):
    """One game; returns the final reward of every agent."""
    e.reset(seed=seed)
    final = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            final[agent] = reward
            e.step(None)
            continue
        e.step(policies[agent].act(obs["observation"], obs["action_mask"]))
    return final


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--ruleset", default="caylus")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--train", type=int, default=40, help="training games")
    ap.add_argument("--eval", type=int, default=20, help="evaluation games per policy")
    a = ap.parse_args(argv)

    e = make_env(a.ruleset, players=a.players)
    agents = e.unwrapped.possible_agents
    n_actions = e.action_space(agents[0]).n
    print("%s: %d agents, %d actions, observation vector of %d numbers"
          % (a.ruleset, len(agents), n_actions, e.observation_space(agents[0])["observation"].shape[0]))

    learner = PreferencePolicy(n_actions, seed=0)
    for k in range(a.train):
        policies = {ag: RandomPolicy(1000 * k + i) for i, ag in enumerate(agents)}
        policies[agents[0]] = learner
        final = play(e, policies, seed=k)
        learner.learn(final[agents[0]])
    top = np.argsort(-learner.prefs)[:8]
    print("most preferred actions after %d games: %s" % (a.train, ", ".join(e.unwrapped.catalogue.action_of(i) for i in top)))

    for name, me in [("random", RandomPolicy(7)), ("learned", learner)]:
        rewards, wins = [], 0
        for k in range(a.eval):
            policies = {ag: RandomPolicy(99_000 + 1000 * k + i) for i, ag in enumerate(agents)}
            policies[agents[0]] = me
            final = play(e, policies, seed=10_000 + k)
            rewards.append(final[agents[0]])
            wins += final[agents[0]] == max(final.values())
            if name == "learned":
                learner.trace = []       # frozen: no learning during evaluation
        print("%-8s seat 0 vs random: mean rank reward %+.2f, won %d of %d" % (name, float(np.mean(rewards)), wins, a.eval))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
