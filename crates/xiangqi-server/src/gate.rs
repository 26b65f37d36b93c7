//! Who may connect and for how long. Every TCP connection is counted from accept to
//! close (the limits on connections in total and per address), and while it has not
//! signed in it is also an "unauthenticated" one, capped per address and in total with
//! OpenSSH's MaxStartups rule (random early drop between `start` and `full`).

use std::collections::HashMap;
use std::fmt;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::watch;

pub use xiangqi_app::config::MaxStartups;

/// The limits a gate enforces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GateLimits {
    /// Connections at once (`max_sessions`).
    pub connections: usize,
    /// Connections at once from one address (`max_per_address`).
    pub per_address: usize,
    /// Unauthenticated connections at once, in total.
    pub startups: MaxStartups,
    /// Unauthenticated connections at once from one address.
    pub startups_per_address: usize,
}

/// Why a connection is refused; its text is what the client is told.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    Full(usize),
    PerAddress(usize),
    StartupsPerAddress,
    Startups,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Full(n) => write!(f, "the server is full ({n} sessions): try again later"),
            Refusal::PerAddress(n) => {
                write!(f, "too many sessions from your address (at most {n})")
            }
            Refusal::StartupsPerAddress => write!(f, "too many connections from your address"),
            Refusal::Startups => write!(f, "too many connections starting: try again later"),
        }
    }
}

/// Whether MaxStartups lets one more unauthenticated connection in when `starting`
/// are already waiting; `roll` is a random number in 0..100. Below `start` all are
/// accepted, from `full` on none, between them each is dropped with a chance rising
/// linearly from `rate` % to 100 % (OpenSSH's `drop_connection`).
pub fn startup_admitted(limit: MaxStartups, starting: usize, roll: u32) -> bool {
    let (start, rate, full) = (
        limit.start as usize,
        limit.rate as usize,
        limit.full as usize,
    );
    if starting < start {
        return true;
    }
    if starting >= full {
        return false;
    }
    let chance = rate + (100 - rate) * (starting - start) / (full - start);
    roll as usize >= chance
}

/// How far a connection got; deadlines are set per stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Connected, not signed in.
    Login,
    /// Signed in, no session running (none started yet, or it ended).
    SignedIn,
    /// Running an interactive session.
    Started,
}

#[derive(Default)]
struct PerAddress {
    connections: usize,
    unauthenticated: usize,
}

struct Counts {
    connections: usize,
    unauthenticated: usize,
    by_address: HashMap<IpAddr, PerAddress>,
    /// xorshift state for the random early drop (no need for a strong generator).
    random: u64,
}

impl Counts {
    fn roll(&mut self) -> u32 {
        let mut x = self.random;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.random = x;
        (x % 100) as u32
    }
}

pub struct Gate {
    limits: GateLimits,
    counts: Mutex<Counts>,
}

impl Gate {
    pub fn new(limits: GateLimits) -> Arc<Gate> {
        // xorshift's state must not be 0.
        let seed = xiangqi_core::rng::random_seed() | 1;
        Arc::new(Gate {
            limits,
            counts: Mutex::new(Counts {
                connections: 0,
                unauthenticated: 0,
                by_address: HashMap::new(),
                random: seed,
            }),
        })
    }

    fn counts(&self) -> MutexGuard<'_, Counts> {
        self.counts.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Counts a new connection from `ip`, or says why it is refused.
    pub fn admit(self: &Arc<Self>, ip: IpAddr) -> Result<Arc<Admission>, Refusal> {
        let roll = self.counts().roll();
        self.admit_with(ip, roll)
    }

    fn admit_with(self: &Arc<Self>, ip: IpAddr, roll: u32) -> Result<Arc<Admission>, Refusal> {
        let limits = self.limits;
        let mut counts = self.counts();
        if counts.connections >= limits.connections {
            return Err(Refusal::Full(limits.connections));
        }
        let starting = counts.unauthenticated;
        let here = counts.by_address.get(&ip);
        if here.is_some_and(|here| here.connections >= limits.per_address) {
            return Err(Refusal::PerAddress(limits.per_address));
        }
        if here.is_some_and(|here| here.unauthenticated >= limits.startups_per_address) {
            return Err(Refusal::StartupsPerAddress);
        }
        if !startup_admitted(limits.startups, starting, roll) {
            return Err(Refusal::Startups);
        }
        counts.connections += 1;
        counts.unauthenticated += 1;
        let here = counts.by_address.entry(ip).or_default();
        here.connections += 1;
        here.unauthenticated += 1;
        Ok(Arc::new(Admission {
            gate: Arc::clone(self),
            ip,
            stage: watch::Sender::new(Stage::Login),
        }))
    }

    /// Connections open now (signed in or not).
    pub fn connection_count(&self) -> usize {
        self.counts().connections
    }

    /// Connections that have not signed in yet.
    pub fn unauthenticated_count(&self) -> usize {
        self.counts().unauthenticated
    }
}

/// A counted connection, shared by its task, its SSH handler and its session; the
/// last one dropped frees its place.
pub struct Admission {
    gate: Arc<Gate>,
    ip: IpAddr,
    stage: watch::Sender<Stage>,
}

impl Admission {
    /// Signed in: no longer counted as unauthenticated.
    pub fn signed_in(&self) {
        // Under the counts' lock, so `Drop` sees the stage the counts reflect.
        let mut counts = self.gate.counts();
        if *self.stage.borrow() == Stage::Login {
            counts.unauthenticated -= 1;
            if let Some(here) = counts.by_address.get_mut(&self.ip) {
                here.unauthenticated -= 1;
            }
            self.stage.send_replace(Stage::SignedIn);
        }
    }

    /// The interactive session started: no more deadline.
    pub fn started(&self) {
        self.signed_in();
        self.stage.send_replace(Stage::Started);
    }

    /// The session ended. No other may start on this connection, so the channel
    /// grace applies again: a client that keeps the connection open is closed.
    pub fn session_ended(&self) {
        self.stage.send_replace(Stage::SignedIn);
    }

    pub fn stage(&self) -> watch::Receiver<Stage> {
        self.stage.subscribe()
    }
}

impl Drop for Admission {
    fn drop(&mut self) {
        let mut counts = self.gate.counts();
        let unauthenticated = usize::from(*self.stage.borrow() == Stage::Login);
        counts.connections -= 1;
        counts.unauthenticated -= unauthenticated;
        if let Some(here) = counts.by_address.get_mut(&self.ip) {
            here.connections -= 1;
            here.unauthenticated -= unauthenticated;
            if here.connections == 0 {
                counts.by_address.remove(&self.ip);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> GateLimits {
        GateLimits {
            connections: 5,
            per_address: 3,
            startups: MaxStartups {
                start: 2,
                rate: 50,
                full: 4,
            },
            startups_per_address: 2,
        }
    }

    #[test]
    fn max_startups_accepts_below_start_drops_linearly_then_refuses_at_full() {
        let limit = MaxStartups {
            start: 10,
            rate: 30,
            full: 100,
        };
        // Below start: even the unluckiest roll is accepted.
        assert!(startup_admitted(limit, 9, 0));
        // At start the chance to drop is rate %: rolls 0..30 drop, 30.. pass.
        assert!(!startup_admitted(limit, 10, 29));
        assert!(startup_admitted(limit, 10, 30));
        // Half-way (55): 30 + 70 * 45 / 90 = 65 %.
        assert!(!startup_admitted(limit, 55, 64));
        assert!(startup_admitted(limit, 55, 65));
        // Just below full: 30 + 70 * 89 / 90 = 99 %; at full, nothing passes.
        assert!(startup_admitted(limit, 99, 99));
        assert!(!startup_admitted(limit, 99, 98));
        assert!(!startup_admitted(limit, 100, 99));
        // start = full (a bare "10"): a hard cap.
        let hard = MaxStartups {
            start: 10,
            rate: 100,
            full: 10,
        };
        assert!(startup_admitted(hard, 9, 0));
        assert!(!startup_admitted(hard, 10, 99));
    }

    #[test]
    fn unauthenticated_connections_are_capped_per_address_until_they_sign_in() {
        let gate = Gate::new(limits());
        let ip: IpAddr = [10, 0, 0, 1].into();
        let first = gate.admit_with(ip, 99).unwrap();
        let second = gate.admit_with(ip, 99).unwrap();
        assert_eq!(
            gate.admit_with(ip, 99).err(),
            Some(Refusal::StartupsPerAddress)
        );
        first.signed_in();
        assert_eq!(gate.unauthenticated_count(), 1);
        let third = gate.admit_with(ip, 99).unwrap();
        // Three connections from one address, signed in or not, are its limit.
        first.started();
        second.signed_in();
        assert_eq!(gate.admit_with(ip, 99).err(), Some(Refusal::PerAddress(3)));
        drop((first, second, third));
        assert_eq!(
            (gate.connection_count(), gate.unauthenticated_count()),
            (0, 0)
        );
        assert!(gate.admit_with(ip, 99).is_ok());
    }

    #[test]
    fn every_connection_counts_toward_the_total_and_startups_drop_early() {
        let gate = Gate::new(limits());
        let ips: Vec<IpAddr> = (1..=6).map(|n| IpAddr::from([10, 0, 0, n])).collect();
        let a = gate.admit_with(ips[0], 0).unwrap();
        let b = gate.admit_with(ips[1], 0).unwrap();
        // Two starting: at `start`, a roll under 50 is dropped.
        assert_eq!(gate.admit_with(ips[2], 49).err(), Some(Refusal::Startups));
        let c = gate.admit_with(ips[2], 50).unwrap();
        // Three starting: 75 %.
        assert!(gate.admit_with(ips[3], 74).is_err());
        let d = gate.admit_with(ips[3], 75).unwrap();
        // Four starting: full.
        assert_eq!(gate.admit_with(ips[4], 99).err(), Some(Refusal::Startups));
        for admission in [&a, &b, &c, &d] {
            admission.started();
        }
        let e = gate.admit_with(ips[4], 0).unwrap();
        e.started();
        assert_eq!(gate.admit_with(ips[5], 99).err(), Some(Refusal::Full(5)));
        drop(e);
        assert!(gate.admit_with(ips[5], 99).is_ok());
    }

    #[test]
    fn refusals_read_as_the_client_is_told() {
        assert_eq!(
            Refusal::Full(200).to_string(),
            "the server is full (200 sessions): try again later"
        );
        assert_eq!(
            Refusal::PerAddress(8).to_string(),
            "too many sessions from your address (at most 8)"
        );
    }
}
