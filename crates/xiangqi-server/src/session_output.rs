//! A session's output: the frames waiting to be written to its channel, bounded, and the
//! task that writes them.

use std::sync::{Arc, Mutex};

use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::sync::Notify;

use super::MAX_PENDING_OUTPUT;

/// Frames waiting to be written; bounded.
#[derive(Default)]
pub(super) struct Output {
    pending: Mutex<(Vec<u8>, bool)>,
    ready: Notify,
}

impl Output {
    /// Queues `bytes`; `false` when the client is too far behind and everything
    /// queued was dropped (the next frame must then be a full one).
    pub(super) fn push(&self, bytes: &[u8]) -> bool {
        let mut pending = self.pending.lock().unwrap_or_else(|p| p.into_inner());
        let fits = pending.0.len() + bytes.len() <= MAX_PENDING_OUTPUT;
        if fits {
            pending.0.extend_from_slice(bytes);
        } else {
            pending.0.clear();
        }
        drop(pending);
        self.ready.notify_one();
        fits
    }

    pub(super) fn close(&self) {
        self.pending.lock().unwrap_or_else(|p| p.into_inner()).1 = true;
        self.ready.notify_one();
    }

    pub(super) async fn drain(self: Arc<Self>, mut writer: impl AsyncWrite + Unpin) {
        loop {
            self.ready.notified().await;
            let (bytes, closed) = {
                let mut pending = self.pending.lock().unwrap_or_else(|p| p.into_inner());
                (std::mem::take(&mut pending.0), pending.1)
            };
            if !bytes.is_empty()
                && (writer.write_all(&bytes).await.is_err() || writer.flush().await.is_err())
            {
                return;
            }
            if closed {
                return;
            }
        }
    }
}
