import CratesCore
import CratesNet
import CratesStore
import Foundation
import Synchronization

/// What runs behind the session for as long as it does: the camera daemon's follower and
/// the lookup worker.
extension CollectionSession {
    // MARK: The camera daemon

    /// Follows the daemon's socket on a thread of its own: connects when the daemon is
    /// there, reconnects after it restarts, and turns what it reads into events. Keys and
    /// wedge scans never wait on it.
    func startScanner() {
        guard let scanner else { return }
        let post = self.post
        let follower = ScanFollower(path: scanner.path) { message in
            switch message {
            case .connected:
                post(.camera(.connected))
            case .event(let event):
                post(.cameraScan(event))
            case .dropped(let error):
                // Never fatal: a daemon speaking a newer dialect, or garbage on the socket.
                SessionLog.warning("camera: dropped a line from \(scanner.path): \(error)")
                post(.message("camera: dropped a malformed line (\(error))", isError: true))
            case .disconnected:
                post(.camera(.noDaemon))
            }
        }
        guard state.withLock({ state in
            guard state.phase == .running else { return false }
            state.follower = follower
            return true
        }) else { return }
        follower.start()
    }

    // MARK: The lookup worker

    /// Starts the worker, unless lookups are off, nobody is signed in, or the session has
    /// stopped. A step of `lifecycle` only: the worker before it has stopped.
    func startWorker() async {
        guard lookups else {
            post(.discogs(.lookupsOff))
            return
        }
        // Without an account the catalogue still answers what it knows (no request): the
        // rest waits, and the status line says to sign in.
        guard let discogs, discogs.signedIn || catalogue != nil else {
            post(.discogs(.notSignedIn))
            return
        }
        let signedIn = discogs.signedIn
        let username = discogs.username.map(ControlCharacters.cleaned)
        // The collection UI also fetches full details in the background, from the requests
        // the lookups leave over.
        var policy = LookupWorker.Policy()
        policy.backgroundDetails = signedIn
        let worker = LookupWorker(
            queue: store, lookup: DiscogsBarcodeLookup(client: discogs.client), catalogue: catalogue, asksDiscogs: signedIn,
            details: store, policy: policy)
        let post = self.post
        state.withLock { state in
            guard state.phase == .running, state.worker == nil else { return }
            state.workersRunning += 1
            let task = Task {
                let reports = Task {
                    for await event in worker.events {
                        if case .settled(let recordID, .matched, _) = event {
                            await self.announceOwnership(recordID: recordID)
                            continue
                        }
                        guard case .status(let status) = event, signedIn else { continue }
                        post(.discogs(DiscogsStatus(status, username: username)))
                        // Not counting the records in hand: the waiting count comes from the
                        // store after each change (`refreshWaiting`).
                    }
                }
                post(.discogs(signedIn ? .signedIn(username: discogs.displayName) : .notSignedIn))
                await worker.run()
                self.state.withLock { $0.workersRunning -= 1 }
                await reports.value
            }
            state.worker = (worker, task)
        }
    }

    func nudgeWorker() {
        state.withLock { $0.worker?.worker }?.nudge()
    }

    /// Stops the worker, waiting at most a few seconds for the lookup in hand: cut short, it
    /// goes back to the queue (`LookupWorker.stop`). A step of `lifecycle` only.
    func stopWorker() async {
        let running = state.withLock { state in
            defer { state.worker = nil }
            return state.worker
        }
        guard let (worker, task) = running else { return }
        await worker.stop()
        await task.value
    }
}
