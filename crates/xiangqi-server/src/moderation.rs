//! Moderation: who may sign in (the allowlist, the bans kept in the store), the admins'
//! commands (`kick`, `ban`, `unban`, `close`), the sessions open (so that a user's can be
//! ended) and how many rooms one identity may open per minute.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::watch;

use crate::store::{Ban, BanTarget, Store, StoreError, unix_now};
use xiangqi_app::game::Moderation;

use super::hub::Hub;
use super::rate_window::{RateWindow, wait_text};
use super::{log, printable};

/// What a kicked user is told.
pub const KICKED: &str = "you were removed from this server by its admin";

/// What a banned user is told, at sign-in and when the ban ends a session.
pub fn banned_text(reason: &str) -> String {
    if reason.is_empty() {
        "you are banned from this server".to_owned()
    } else {
        format!("you are banned from this server ({reason})")
    }
}

/// Who gives a command (moderation, tournaments): the one description of a session's
/// or an SSH command's sender.
#[derive(Debug, Clone)]
pub struct Actor {
    pub name: String,
    /// The key's fingerprint; `None` for a guest (never an admin).
    pub key: Option<String>,
    pub admin: bool,
    /// Whom the per-identity limits count: the key, else the guest's address.
    pub opener: String,
}

impl Actor {
    pub fn new(hub: &Hub, name: String, key: Option<String>, addr: Option<SocketAddr>) -> Actor {
        Actor {
            admin: is_admin(hub, key.as_deref()),
            opener: opener(key.as_deref(), addr),
            name,
            key,
        }
    }
}

/// The moderation state the hub holds.
pub struct Moderators {
    pub sessions: Arc<Sessions>,
    /// Rooms opened per identity per minute.
    pub openings: RateWindow,
    /// Names pinned (new keys, renames) per address per hour.
    pub new_names: RateWindow,
    /// Chat lines per identity per minute.
    pub says: RateWindow,
}

const MINUTE: Duration = Duration::from_secs(60);
const HOUR: Duration = Duration::from_secs(60 * 60);

impl Moderators {
    pub fn new(rooms_per_minute: u32, new_names_per_hour: u32, say_per_minute: u32) -> Moderators {
        Moderators {
            sessions: Arc::default(),
            openings: RateWindow::new(rooms_per_minute, MINUTE),
            new_names: RateWindow::new(new_names_per_hour, HOUR),
            says: RateWindow::new(say_per_minute, MINUTE),
        }
    }
}

/// A session as moderation sees it: who, from where, and how to end it.
struct LiveSession {
    name: String,
    key: Option<String>,
    ip: Option<IpAddr>,
    end: watch::Sender<Option<String>>,
}

impl LiveSession {
    fn is(&self, target: &BanTarget) -> bool {
        match target {
            BanTarget::Key(key) => self.key.as_deref() == Some(key.as_str()),
            BanTarget::Name(name) => same_name(&self.name, name),
            BanTarget::Address(address) => self.ip.is_some_and(|ip| ip.to_string() == *address),
        }
    }
}

/// Names are matched as the store matches them (case does not matter) and as people
/// typed them (a guest's is shown with its mark).
fn same_name(a: &str, b: &str) -> bool {
    bare(a).to_lowercase() == bare(b).to_lowercase()
}

/// A name without the mark a guest's is shown with.
fn bare(name: &str) -> &str {
    name.strip_suffix(" (guest)").unwrap_or(name)
}

/// The sessions open now.
#[derive(Default)]
pub struct Sessions {
    next: AtomicU64,
    live: Mutex<HashMap<u64, LiveSession>>,
}

/// A session's place in `Sessions`, given up when dropped. `ended` changes to why,
/// when an admin ends the session.
pub struct Registration {
    sessions: Arc<Sessions>,
    id: u64,
    pub ended: watch::Receiver<Option<String>>,
}

impl Drop for Registration {
    fn drop(&mut self) {
        self.sessions.live().remove(&self.id);
    }
}

impl Sessions {
    fn live(&self) -> std::sync::MutexGuard<'_, HashMap<u64, LiveSession>> {
        self.live.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub fn register(
        self: &Arc<Self>,
        name: &str,
        key: Option<&str>,
        addr: Option<SocketAddr>,
    ) -> Registration {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let (end, ended) = watch::channel(None);
        self.live().insert(
            id,
            LiveSession {
                name: name.to_owned(),
                key: key.map(str::to_owned),
                ip: addr.map(|addr| addr.ip().to_canonical()),
                end,
            },
        );
        Registration {
            sessions: Arc::clone(self),
            id,
            ended,
        }
    }

    /// Sessions open now.
    pub fn count(&self) -> usize {
        self.live().len()
    }

    /// Ends the sessions any of `targets` names, but no admin's (`spare`), telling them
    /// `why`; how many.
    fn end(&self, targets: &[BanTarget], spare: impl Fn(&str) -> bool, why: &str) -> usize {
        let live = self.live();
        let mut ended = 0;
        for session in live.values() {
            let spared = session.key.as_deref().is_some_and(&spare);
            if targets.iter().any(|target| session.is(target)) && !spared {
                session.end.send_replace(Some(why.to_owned()));
                ended += 1;
            }
        }
        ended
    }

    /// The keys of the sessions open under `name`.
    fn keys_named(&self, name: &str) -> Vec<String> {
        self.live()
            .values()
            .filter(|session| same_name(&session.name, name))
            .filter_map(|session| session.key.clone())
            .collect()
    }
}

/// What a player who opened too many rooms too fast is told.
pub fn openings_refused(limit: u32, wait: Duration) -> String {
    format!(
        "you opened {limit} rooms in the last minute, the most allowed: try again in {}",
        wait_text(wait)
    )
}

/// The identity whose room openings are counted: the key, else (a guest) the address,
/// so that a guest cannot reconnect its way past the limit.
pub fn opener(key: Option<&str>, addr: Option<SocketAddr>) -> String {
    match (key, addr) {
        (Some(key), _) => key.to_owned(),
        (None, Some(addr)) => addr.ip().to_canonical().to_string(),
        (None, None) => "guest".to_owned(),
    }
}

/// Runs a store call on the blocking pool (SQLite waits on the disk).
async fn blocking<T: Send + 'static>(
    hub: &Arc<Hub>,
    call: impl FnOnce(&dyn Store) -> Result<T, StoreError> + Send + 'static,
) -> Result<T, String> {
    let db = Arc::clone(&hub.db);
    tokio::task::spawn_blocking(move || call(db.as_ref()))
        .await
        .map_err(|error| format!("the store: {error}"))?
        .map_err(|error| error.to_string())
}

pub(crate) fn is_admin(hub: &Hub, key: Option<&str>) -> bool {
    key.is_some_and(|key| hub.settings.admins.contains(key))
}

/// Why a client signing in with `key` (none: a guest) as `name` from `addr` may not
/// play here, if it may not: a key off the allowlist, or a ban. Admins are never
/// refused (the config names them: a mistaken ban cannot lock the host out).
pub async fn sign_in_refusal(
    hub: &Arc<Hub>,
    key: Option<&str>,
    name: Option<&str>,
    addr: Option<SocketAddr>,
) -> Option<String> {
    if is_admin(hub, key) {
        return None;
    }
    if let Some(allowed) = &hub.settings.allowlist {
        match key {
            Some(key) if allowed.contains(key) => {}
            Some(key) => {
                return Some(format!(
                    "this server lets in listed keys only; yours is {key}: ask its host to add it"
                ));
            }
            None => return Some("this server lets in listed keys only".to_owned()),
        }
    }
    let key = key.map(str::to_owned);
    let name = bare(name.unwrap_or_default()).to_owned();
    let address = addr.map_or_else(String::new, |addr| addr.ip().to_canonical().to_string());
    // A store that fails lets the client in: the failure is logged, and a broken store
    // must not lock every player out.
    match blocking(hub, move |db| db.banned(key.as_deref(), &name, &address)).await {
        Ok(ban) => ban.map(|ban| banned_text(&ban.reason)),
        Err(error) => {
            log(&format!("cannot check the bans: {error}"));
            None
        }
    }
}

/// Carries out an admin's command: what to tell the admin, or why not.
pub async fn carry_out(
    hub: &Arc<Hub>,
    actor: &Actor,
    command: Moderation,
) -> Result<String, String> {
    let verb = command.verb().name();
    if !actor.admin {
        tracing::info!(
            event = "moderation_refused",
            action = verb,
            user = %actor.name,
            key = actor.key.as_deref().unwrap_or("guest"),
            "{} may not {verb}: not an admin",
            actor.name
        );
        return Err(format!("{verb}: only the server's admins may do that"));
    }
    let admin = actor.key.clone().unwrap_or_default();
    let result = match &command {
        Moderation::Kick(name) => kick(hub, name),
        Moderation::Ban { target, reason } => ban(hub, &admin, target, reason).await,
        Moderation::Unban(target) => unban(hub, target).await,
        Moderation::Close(room) => hub
            .close(
                room,
                format!("room {room} was closed by the server's admin"),
                "admin",
            )
            .map(|()| format!("room {room} closed; its players are back in the lobby")),
    };
    let outcome = match &result {
        Ok(done) => done.clone(),
        Err(why) => format!("failed: {why}"),
    };
    tracing::info!(
        event = "moderation",
        action = verb,
        admin = %actor.name,
        key = %admin,
        target = %printable(&target_text(&command), 80),
        "admin {} ({admin}): {verb} {}: {outcome}",
        actor.name,
        printable(&target_text(&command), 80)
    );
    result
}

fn target_text(command: &Moderation) -> String {
    match command {
        Moderation::Kick(text) | Moderation::Unban(text) | Moderation::Close(text) => text.clone(),
        Moderation::Ban { target, reason } if reason.is_empty() => target.clone(),
        Moderation::Ban { target, reason } => format!("{target} ({reason})"),
    }
}

fn kick(hub: &Arc<Hub>, name: &str) -> Result<String, String> {
    let ended = hub
        .moderation
        .sessions
        .end(&[BanTarget::Name(name.to_owned())], |_| false, KICKED);
    match ended {
        0 => Err(format!("nobody called {name} is connected")),
        1 => Ok(format!("{name} kicked")),
        n => Ok(format!("{name} kicked ({n} sessions)")),
    }
}

/// The targets a ban or unban of `text` covers: a name also covers the keys that use
/// it (connected now, or holding it in the store), so that a keyed user cannot come
/// back under another name.
async fn targets(hub: &Arc<Hub>, text: &str) -> Result<Vec<BanTarget>, String> {
    let target = BanTarget::parse(text);
    let mut targets = vec![target.clone()];
    if let BanTarget::Name(name) = target {
        let mut keys = hub.moderation.sessions.keys_named(&name);
        if let Some(player) = blocking(hub, move |db| db.player_by_name(&name)).await? {
            keys.push(player.key);
        }
        keys.sort();
        keys.dedup();
        targets.extend(keys.into_iter().map(BanTarget::Key));
    }
    Ok(targets)
}

fn described(targets: &[BanTarget]) -> String {
    targets
        .iter()
        .map(|target| format!("{} {}", target.kind(), target.value()))
        .collect::<Vec<_>>()
        .join(" and ")
}

async fn ban(hub: &Arc<Hub>, admin: &str, text: &str, reason: &str) -> Result<String, String> {
    let targets = targets(hub, text).await?;
    let at = unix_now();
    let bans: Vec<Ban> = targets
        .iter()
        .map(|target| Ban {
            target: target.clone(),
            by: admin.to_owned(),
            reason: reason.to_owned(),
            at,
        })
        .collect();
    blocking(hub, move |db| bans.iter().try_for_each(|ban| db.ban(ban))).await?;
    let why = banned_text(reason);
    let ended = hub
        .moderation
        .sessions
        .end(&targets, |key| is_admin(hub, Some(key)), &why);
    let sessions = if ended == 1 { "session" } else { "sessions" };
    Ok(format!(
        "banned {}; {ended} {sessions} ended",
        described(&targets)
    ))
}

async fn unban(hub: &Arc<Hub>, text: &str) -> Result<String, String> {
    let targets = targets(hub, text).await?;
    let asked = targets.clone();
    let lifted = blocking(hub, move |db| {
        asked
            .iter()
            .map(|target| db.unban(target))
            .collect::<Result<Vec<bool>, _>>()
    })
    .await?;
    let lifted: Vec<BanTarget> = targets
        .into_iter()
        .zip(lifted)
        .filter_map(|(target, was)| was.then_some(target))
        .collect();
    if lifted.is_empty() {
        return Err(format!("{text} is not banned"));
    }
    Ok(format!("unbanned {}", described(&lifted)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_player_past_the_openings_is_told_when_to_try_again() {
        assert_eq!(
            openings_refused(2, Duration::from_secs(40)),
            "you opened 2 rooms in the last minute, the most allowed: try again in 40 s"
        );
    }

    #[test]
    fn guests_are_counted_by_address_keys_by_key() {
        let addr: SocketAddr = "[::ffff:203.0.113.9]:4000".parse().unwrap();
        assert_eq!(opener(None, Some(addr)), "203.0.113.9");
        assert_eq!(opener(Some("SHA256:k"), Some(addr)), "SHA256:k");
    }

    #[test]
    fn ending_sessions_reaches_the_ones_named_and_spares_the_admins() {
        let sessions = Arc::new(Sessions::default());
        let addr: SocketAddr = "203.0.113.9:4000".parse().unwrap();
        let bob = sessions.register("Bob", Some("SHA256:bob"), Some(addr));
        let guest = sessions.register("eve (guest)", None, Some(addr));
        let admin = sessions.register("root", Some("SHA256:admin"), Some(addr));
        assert_eq!(sessions.count(), 3);
        assert_eq!(sessions.keys_named("bob"), ["SHA256:bob"]);
        let address = BanTarget::Address("203.0.113.9".into());
        assert_eq!(
            sessions.end(&[address], |key| key == "SHA256:admin", "banned"),
            2
        );
        assert_eq!(bob.ended.borrow().as_deref(), Some("banned"));
        assert_eq!(guest.ended.borrow().as_deref(), Some("banned"));
        assert_eq!(*admin.ended.borrow(), None);
        drop(bob);
        assert_eq!(sessions.count(), 2);
        let name = BanTarget::Name("BOB".into());
        assert_eq!(sessions.end(&[name], |_| false, KICKED), 0);
        let guest_name = BanTarget::Name("Eve".into());
        assert_eq!(sessions.end(&[guest_name], |_| false, KICKED), 1);
    }
}
