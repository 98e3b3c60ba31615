//! Work shared with one helper thread, in parts claimed from both ends: this thread takes parts
//! from the front, the helper from the back, until they meet. A helper that starts late, or is
//! held up by a busy machine, costs at most the part it holds: this thread takes every part the
//! helper has not claimed. (On the two-processor VM these figures were measured on, the second
//! processor is not always there: a CPU-bound loop ran 1.0–1.5× faster on two threads than on
//! one. An earlier split in two halves, the helper taking the second, gained nothing when calls
//! alternated with other work: a late helper then held half the work.)

use std::sync::Mutex;

/// What the helper did: its accumulator, and the parts it took in the order it took them
/// (descending).
pub struct Helped<A> {
    pub acc: A,
    pub parts: Vec<usize>,
}

/// Runs `work(part, acc)` once for each part in `0..parts`: on this thread with `front` (its
/// parts in ascending order), and, when `helper` is given and a thread can be started, on a
/// helper thread with `helper` as its accumulator. Returns `front` and what the helper did.
/// A panic in `work` on the helper is resumed here.
pub(crate) fn two_ended<A: Send>(
    parts: usize,
    mut front: A,
    helper: Option<A>,
    work: impl Fn(usize, &mut A) + Sync,
) -> (A, Option<Helped<A>>) {
    let Some(mut back) = helper.filter(|_| parts > 1) else {
        for i in 0..parts {
            work(i, &mut front);
        }
        return (front, None);
    };
    // The parts not claimed yet: `unclaimed.0..unclaimed.1`.
    let unclaimed = Mutex::new((0usize, parts));
    let claim = |from_back: bool| -> Option<usize> {
        let mut g = unclaimed.lock().unwrap_or_else(|p| p.into_inner());
        let (lo, hi) = &mut *g;
        if lo == hi {
            return None;
        }
        Some(if from_back {
            *hi -= 1;
            *hi
        } else {
            *lo += 1;
            *lo - 1
        })
    };
    let (claim, work) = (&claim, &work);
    let helped = std::thread::scope(|s| {
        let spawned = std::thread::Builder::new().spawn_scoped(s, move || {
            let mut taken = Vec::new();
            while let Some(i) = claim(true) {
                taken.push(i);
                work(i, &mut back);
            }
            Helped {
                acc: back,
                parts: taken,
            }
        });
        while let Some(i) = claim(false) {
            work(i, &mut front);
        }
        match spawned.map(|h| h.join()) {
            Ok(Ok(h)) => Some(h),
            Ok(Err(panic)) => std::panic::resume_unwind(panic),
            // No thread: this one claimed every part.
            Err(_) => None,
        }
    });
    (front, helped)
}

/// Whether work of this size is worth a helper: from `from` units on, with two processors or
/// more.
pub(crate) fn worth_helping(size: usize, from: usize) -> bool {
    size >= from && super::cpus() >= 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_part_once_front_ascending_helper_descending() {
        for parts in [0, 1, 2, 3, 17, 400] {
            for _ in 0..50 {
                let (front, helped) = two_ended(parts, Vec::new(), Some(Vec::new()), |i, acc: &mut Vec<usize>| {
                    acc.push(i)
                });
                assert!(front.windows(2).all(|w| w[0] + 1 == w[1]) && front.first().is_none_or(|&f| f == 0));
                let mut all = front.clone();
                if let Some(h) = helped {
                    assert_eq!(h.acc, h.parts);
                    assert!(
                        h.parts.windows(2).all(|w| w[0] == w[1] + 1) && h.parts.first().is_none_or(|&l| l == parts - 1)
                    );
                    all.extend(h.parts.iter().rev());
                }
                assert_eq!(all, (0..parts).collect::<Vec<_>>());
            }
        }
    }

    #[test]
    fn a_panic_on_the_helper_reaches_the_caller() {
        let r = std::panic::catch_unwind(|| {
            two_ended(64, (), Some(()), |i, _| {
                if i == 63 {
                    // The helper takes the last part first unless this thread gets there before it.
                    std::thread::sleep(std::time::Duration::from_millis(1));
                    panic!("part 63");
                }
                std::thread::sleep(std::time::Duration::from_micros(200));
            })
        });
        assert!(r.is_err());
    }
}
