"""«¿Cómo jugué?»: a private review of one seat's decisions in a hand, with only what it knew.

Pure like the engine (no I/O, no clock): a client asks, and words the answer with
:mod:`.text`. For each word the seat said:

- the chance its pair had at the lance, and that an opponent held pares or juego, from thousands
  of deals of the cards it had not seen that agree with what was certain (:mod:`.chances`);
- at a betting turn, what every word was expected to bring in tantos (:mod:`.options`, by
  «dificil»'s own sampler and rollouts, played out until each is known within a quarter of a
  tanto), the word worth the most, and why «dificil» would say another if it would;
- and one line of advice where the player's word cost the most.

Each decision's sampling is seeded by what its seat knew (:func:`.review.decision_seed`): the
same decision gets the same figures however and whenever it is asked.

A review is read from the seat's views alone (:mod:`.review`), so asked in the middle of a hand
it tells nothing the seat could not see.

At a table: the hands a review may be asked of (:mod:`.book`), asked as plain data and answered
in a worker process (:mod:`.reviewer`). From the terminal: ``musbot repaso`` (:mod:`.cli`).
The coach imports nothing of the table: the table, the Discord adapter and the terminal ask it
(tests/test_layers.py).
"""

from .book import KEPT, HandBook, KeptBook
from .chances import Chances, Knowledge
from .options import Option
from .review import (
    ADVICE_MIN,
    Decision,
    DecisionReview,
    Review,
    decision_seed,
    decisions,
    review,
    review_transcript,
)
from .reviewer import REVIEWER, ReviewAsk, Reviewer, ReviewRefused

__all__ = ["ADVICE_MIN", "KEPT", "REVIEWER", "Chances", "Decision", "DecisionReview", "HandBook",
           "KeptBook", "Knowledge", "Option", "Review", "ReviewAsk", "ReviewRefused", "Reviewer",
           "decision_seed", "decisions", "review", "review_transcript"]
