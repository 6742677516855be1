import Foundation
import Net

#if canImport(Glibc)
    import Glibc
    import CSystem
#elseif canImport(Darwin)
    import Darwin
#endif

/// The floor: the least a server must do to fan a line out, so the host's figures have something to be compared with.
///
/// One thread, non-blocking sockets and epoll (the same `Net` code the host uses), no JSON, no game:
/// it greets each new connection with one line (so the driver knows it was accepted), and when a
/// connection sends complete lines it writes those same bytes to every connection, the sender included.
/// Bytes a socket does not take at once wait in that connection's buffer until it is writable.
enum FloorRelay {
    /// Runs the relay on 127.0.0.1 (a free port, printed as `ready port=P`) until stdin closes.
    static func run() -> Never {
        signal(SIGPIPE, SIG_IGN)
        OpenFileLimit.raise(toAtLeast: .max)
        let listener: Socket
        let poller: Poller
        let port: UInt16
        do {
            listener = try Socket.makeListener(address: "127.0.0.1", port: 0, backlog: 4096)
            port = try listener.localPort()
            poller = try Poller(capacity: 1024)
            try poller.add(listener.fd, interest: .read)
            try poller.add(STDIN_FILENO, interest: .read)
        } catch {
            FileHandle.standardError.write(Data("floor relay: \(error)\n".utf8))
            exit(2)
        }
        FileHandle.standardOutput.write(Data("ready port=\(port)\n".utf8))

        final class Peer {
            let fd: Int32
            var partial: [UInt8] = []
            var pending: [UInt8] = []
            var isWatchingWrites = false
            init(fd: Int32) { self.fd = fd }
        }
        var peers: [Int32: Peer] = [:]
        var order: [Peer] = []
        let greeting: [UInt8] = Array("{\"type\":\"welcome\",\"room\":\"FLOOR\"}\n".utf8)
        let bufferSize = 64 * 1024
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 16)

        func write(_ peer: Peer, _ bytes: UnsafeRawBufferPointer) {
            if peer.pending.isEmpty {
                let written = Glue.send(peer.fd, bytes.baseAddress, bytes.count, sendFlags)
                if written == bytes.count { return }
                let done = max(0, written)
                peer.pending.append(contentsOf: bytes[done...])
            } else {
                peer.pending.append(contentsOf: bytes)
            }
            if !peer.isWatchingWrites {
                peer.isWatchingWrites = true
                try? poller.modify(peer.fd, interest: [.read, .write])
            }
        }

        func flush(_ peer: Peer) {
            while !peer.pending.isEmpty {
                let written = peer.pending.withUnsafeBytes { Glue.send(peer.fd, $0.baseAddress, $0.count, sendFlags) }
                if written <= 0 { return }
                peer.pending.removeFirst(written)
            }
            peer.isWatchingWrites = false
            try? poller.modify(peer.fd, interest: .read)
        }

        func drop(_ peer: Peer) {
            poller.remove(peer.fd)
            _ = Glue.close(peer.fd)
            peers[peer.fd] = nil
            order.removeAll { $0 === peer }
        }

        func relay(_ bytes: UnsafeRawBufferPointer) {
            for peer in order { write(peer, bytes) }
        }

        while true {
            guard let ready = try? poller.wait(timeoutMilliseconds: -1) else { continue }
            for readiness in ready {
                if readiness.fd == STDIN_FILENO {
                    var byte: UInt8 = 0
                    if read(STDIN_FILENO, &byte, 1) <= 0 { exit(0) }
                    continue
                }
                if poller.isWakeUp(readiness.fd) {
                    poller.drainWakeUps()
                    continue
                }
                if readiness.fd == listener.fd {
                    while let (socket, _) = try? listener.accept() {
                        var one: Int32 = 1
                        setsockopt(
                            socket.fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                        let peer = Peer(fd: socket.fd)
                        peers[socket.fd] = peer
                        order.append(peer)
                        try? poller.add(socket.fd, interest: .read)
                        greeting.withUnsafeBytes { write(peer, $0) }
                    }
                    continue
                }
                guard let peer = peers[readiness.fd] else { continue }
                if readiness.isWritable { flush(peer) }
                guard readiness.isReadable || readiness.isHangUp else { continue }
                let count = Glue.recv(peer.fd, buffer.baseAddress, bufferSize, 0)
                if count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR) {
                    drop(peer)
                    continue
                }
                guard count > 0 else { continue }
                let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
                guard let lastNewline = chunk.lastIndex(of: 0x0A) else {
                    peer.partial.append(contentsOf: chunk)
                    continue
                }
                if peer.partial.isEmpty {
                    // The usual case: whole lines in one read, relayed as they came.
                    relay(UnsafeRawBufferPointer(rebasing: chunk[...lastNewline]))
                } else {
                    peer.partial.append(contentsOf: chunk[...lastNewline])
                    let lines = peer.partial
                    peer.partial.removeAll()
                    lines.withUnsafeBytes { relay($0) }
                }
                if lastNewline + 1 < count { peer.partial.append(contentsOf: chunk[(lastNewline + 1)...]) }
            }
        }
    }
}
