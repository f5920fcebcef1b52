import CratesCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension ScanServer {
    /// What a client turned away at the limit is told.
    static let turnedAwayReason =
        "too many clients: \(maximumClients) are connected to this camera daemon already; close one and connect again"

    /// One connected client: its descriptor and the bytes not yet written to it.
    struct Client {
        let fd: Int32
        var pending: [UInt8] = []
        var written = 0

        var hasPending: Bool { written < pending.count }

        /// Writes what it can without blocking. False when the client is gone.
        mutating func flush() -> Bool {
            while written < pending.count {
                let count = pending.withUnsafeBytes { raw in
                    send(fd, raw.baseAddress.map { $0 + written }, pending.count - written, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
                }
                if count > 0 {
                    written += count
                } else if count < 0, errno == EINTR {
                    continue
                } else if count < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                    break
                } else {
                    return false  // EPIPE, ECONNRESET…
                }
            }
            if written == pending.count {
                pending.removeAll(keepingCapacity: true)
                written = 0
            } else if written > 32 * 1024 {
                pending.removeFirst(written)
                written = 0
            }
            return true
        }
    }

    /// The poll loop; runs on its own thread until `stop()`. Every descriptor is owned here.
    func run() {
        var clients: [Client] = []
        var scratch = [UInt8](repeating: 0, count: 4096)
        while true {
            var fds = [pollfd(fd: wakeReadFD, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: listenerFD, events: Int16(POLLIN), revents: 0)]
            for client in clients {
                fds.append(pollfd(fd: client.fd, events: Int16(POLLIN) | (client.hasPending ? Int16(POLLOUT) : 0), revents: 0))
            }
            if poll(&fds, nfds_t(fds.count), -1) < 0 {
                if errno == EINTR { continue }
                log("scanner socket: poll failed: \(String(cString: strerror(errno)))")
                usleep(100_000)
                continue
            }
            if fds[0].revents != 0 {
                while scratch.withUnsafeMutableBytes({ read(wakeReadFD, $0.baseAddress, $0.count) }) > 0 {}
            }
            let (lines, stopping) = takeOutgoing()
            if stopping {
                // Lines queued before stop() are still offered, without waiting for anyone.
                for line in lines {
                    for index in clients.indices {
                        clients[index].pending.append(contentsOf: line)
                        _ = clients[index].flush()
                    }
                }
                break
            }

            var gone = Set<Int32>()
            for index in clients.indices {
                let events = fds[index + 2].revents
                if events & Int16(POLLIN) != 0 {
                    // Clients have nothing to say in this protocol: read and discard, so their
                    // bytes never fill the socket; 0 is an orderly close.
                    let count = scratch.withUnsafeMutableBytes { recv(clients[index].fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                    if count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR) { gone.insert(clients[index].fd) }
                }
                if events & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 { gone.insert(clients[index].fd) }
                if events & Int16(POLLOUT) != 0, !clients[index].flush() { gone.insert(clients[index].fd) }
            }
            for line in lines {
                for index in clients.indices where !gone.contains(clients[index].fd) {
                    if clients[index].pending.count - clients[index].written + line.count > Self.maximumBuffered {
                        log("dropped a camera client that stopped reading (\(Self.maximumBuffered / 1024) KB unread)")
                        gone.insert(clients[index].fd)
                        continue
                    }
                    clients[index].pending.append(contentsOf: line)
                    if !clients[index].flush() { gone.insert(clients[index].fd) }
                }
            }
            if !gone.isEmpty {
                for client in clients where gone.contains(client.fd) { close(client.fd) }
                clients.removeAll { gone.contains($0.fd) }
            }
            if fds[1].revents & Int16(POLLIN) != 0 {
                while true {
                    let fd = UnixSocket.accept(listenerFD)
                    if fd < 0 {
                        if errno == EINTR || errno == ECONNABORTED { continue }
                        break  // EAGAIN: no more waiting; EMFILE and the like: try next turn
                    }
                    if clients.count >= Self.maximumClients {
                        // Told why, in one line, before the close (a new socket's buffer
                        // takes it at once; if not, the close alone has to say it).
                        let line = ScanEvent.refusalLine(Self.turnedAwayReason)
                        _ = line.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
                        close(fd)
                        log("turned a camera client away: \(Self.maximumClients) are connected already")
                    } else {
                        clients.append(Client(fd: fd))
                    }
                }
            }
            recordClients(clients.count)
        }
        for client in clients { close(client.fd) }
        finish()
    }
}
