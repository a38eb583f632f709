//! Live MCP sessions, capped at [`MAX_SESSIONS`]. rmcp's `LocalSessionManager` keeps a
//! session until its client sends DELETE or it sits idle for five minutes, so clients that
//! vanish pile up (5,000 took the server from 11 to 312 MB). A session opened past the cap
//! closes the least recently used one without a call in flight (any, if every one has
//! one); its client's next request gets 404, the specification's sign to start anew.

use std::collections::HashMap;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};

use futures_core::Stream;
use parking_lot::{Mutex, MutexGuard};
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError,
};
use rmcp::transport::streamable_http_server::session::{
    EventStore, RestoreOutcome, ServerSseMessage, SessionId, SessionManager,
};

/// How many MCP sessions stay open at once: far more agents than one phone serves, at
/// tens of kilobytes each.
pub const MAX_SESSIONS: usize = 64;

/// rmcp's in-memory sessions, at most `cap` of them.
#[derive(Debug)]
pub(super) struct CappedSessions {
    inner: LocalSessionManager,
    cap: usize,
    uses: Arc<Mutex<Uses>>,
    /// Whether the operator was told that the cap was reached.
    told: AtomicBool,
}

/// When each live session was last used, and its calls in flight.
#[derive(Debug, Default)]
struct Uses {
    /// Counts every use, so a larger `last` is a later use.
    clock: u64,
    by_id: HashMap<SessionId, Use>,
}

#[derive(Debug, Clone, Copy)]
struct Use {
    last: u64,
    calls: usize,
}

impl Uses {
    fn touch(&mut self, id: &SessionId) -> Option<&mut Use> {
        self.clock += 1;
        let now = self.clock;
        let used = self.by_id.get_mut(id)?;
        used.last = now;
        Some(used)
    }

    fn open(&mut self, id: SessionId) {
        self.clock += 1;
        let last = self.clock;
        self.by_id.insert(id, Use { last, calls: 0 });
    }

    /// The session to close for room: the least recently used without a call in
    /// flight, else the least recently used.
    fn victim(&self) -> Option<SessionId> {
        self.by_id
            .iter()
            .min_by_key(|(_, used)| (used.calls > 0, used.last))
            .map(|(id, _)| id.clone())
    }
}

impl CappedSessions {
    pub(super) fn new(cap: usize) -> Self {
        Self {
            inner: LocalSessionManager::default(),
            cap,
            uses: Arc::default(),
            told: AtomicBool::new(false),
        }
    }

    fn uses(&self) -> MutexGuard<'_, Uses> {
        self.uses.lock()
    }

    fn touch(&self, id: &SessionId) {
        self.uses().touch(id);
    }

    /// Closes sessions until one more fits.
    async fn make_room(&self) -> Result<(), LocalSessionManagerError> {
        loop {
            let victim = {
                let uses = self.uses();
                if uses.by_id.len() < self.cap {
                    return Ok(());
                }
                uses.victim()
            };
            let Some(victim) = victim else {
                return Ok(());
            };
            if !self.told.swap(true, Ordering::Relaxed) {
                eprintln!(
                    "tapscope: {} MCP sessions are open; each new one closes the least \
                     recently used idle one, whose client must initialize again",
                    self.cap
                );
            }
            self.close_session(&victim).await?;
        }
    }
}

impl SessionManager for CappedSessions {
    type Error = LocalSessionManagerError;
    type Transport = <LocalSessionManager as SessionManager>::Transport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        self.make_room().await?;
        let (id, transport) = self.inner.create_session().await?;
        self.uses().open(id.clone());
        Ok((id, transport))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        self.touch(id);
        self.inner.initialize_session(id, message).await
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        self.inner.has_session(id).await
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        self.uses().by_id.remove(id);
        self.inner.close_session(id).await
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        let call = Call::begin(&self.uses, id);
        let stream = self.inner.create_stream(id, message).await?;
        Ok(InCall {
            stream: Box::pin(stream),
            _call: call,
        })
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        self.touch(id);
        self.inner.accept_message(id, message).await
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id);
        self.inner.create_standalone_stream(id).await
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id);
        self.inner.resume(id, last_event_id).await
    }

    async fn restore_session(
        &self,
        id: SessionId,
    ) -> Result<RestoreOutcome<Self::Transport>, Self::Error> {
        self.make_room().await?;
        let outcome = self.inner.restore_session(id.clone()).await?;
        if let RestoreOutcome::Restored(_) = &outcome {
            self.uses().open(id);
        }
        Ok(outcome)
    }

    fn event_store(&self) -> Option<Arc<dyn EventStore>> {
        self.inner.event_store()
    }
}

/// A call in flight in a session, from its request until its response stream is dropped
/// (sent whole, or its client gone).
#[derive(Debug)]
struct Call {
    uses: Arc<Mutex<Uses>>,
    id: SessionId,
}

impl Call {
    fn begin(uses: &Arc<Mutex<Uses>>, id: &SessionId) -> Self {
        if let Some(used) = uses.lock().touch(id) {
            used.calls += 1;
        }
        Call {
            uses: Arc::clone(uses),
            id: id.clone(),
        }
    }
}

impl Drop for Call {
    fn drop(&mut self) {
        if let Some(used) = self.uses.lock().touch(&self.id) {
            used.calls = used.calls.saturating_sub(1);
        }
    }
}

/// A call's response stream, which ends the call when dropped.
struct InCall<S> {
    stream: Pin<Box<S>>,
    _call: Call,
}

impl<S: Stream> Stream for InCall<S> {
    type Item = S::Item;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<S::Item>> {
        self.stream.as_mut().poll_next(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(s: &str) -> SessionId {
        SessionId::from(s)
    }

    #[test]
    fn the_least_recently_used_idle_session_goes_first() {
        let mut uses = Uses::default();
        for s in ["a", "b", "c"] {
            uses.open(id(s));
        }
        assert_eq!(uses.victim(), Some(id("a")));
        uses.touch(&id("a"));
        assert_eq!(uses.victim(), Some(id("b")));
        // A call in flight keeps b, however long it has waited.
        if let Some(used) = uses.by_id.get_mut(&id("b")) {
            used.calls = 1;
        }
        assert_eq!(uses.victim(), Some(id("c")));
        for s in ["a", "c"] {
            if let Some(used) = uses.by_id.get_mut(&id(s)) {
                used.calls = 1;
            }
        }
        assert_eq!(
            uses.victim(),
            Some(id("b")),
            "all busy: the least recently used"
        );
    }

    #[tokio::test]
    async fn sessions_past_the_cap_close_the_oldest() {
        let sessions = CappedSessions::new(2);
        let mut opened = Vec::new();
        for _ in 0..5 {
            let (id, _transport) = sessions.create_session().await.expect("a session");
            opened.push(id);
        }
        assert_eq!(sessions.inner.sessions.read().await.len(), 2);
        assert_eq!(sessions.uses().by_id.len(), 2);
        for (n, id) in opened.iter().enumerate() {
            let live = sessions.has_session(id).await.expect("an answer");
            assert_eq!(live, n >= 3, "session {n}");
        }
    }

    #[tokio::test]
    async fn a_call_ends_when_its_stream_is_dropped() {
        let sessions = CappedSessions::new(2);
        let (first, _transport) = sessions.create_session().await.expect("a session");
        let call = Call::begin(&sessions.uses, &first);
        assert_eq!(sessions.uses().by_id[&first].calls, 1);
        drop(call);
        assert_eq!(sessions.uses().by_id[&first].calls, 0);
    }
}
