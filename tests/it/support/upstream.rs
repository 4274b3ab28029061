//! Real upstream servers on loopback for proxy tests: a minimal threaded HTTP/1.1
//! server that records every request it receives (raw bytes included) and answers
//! with a handler's reply, optionally in timed chunks (for streams). It can also
//! misbehave: stop mid-body, send bytes that are not what its headers say, or send
//! huge answers; and it can keep connections alive and count them.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A request as the upstream received it.
#[derive(Debug, Clone)]
pub struct Received {
    pub method: String,
    pub path: String,
    /// Lower-cased names.
    pub headers: Vec<(String, String)>,
    /// The decoded body (chunked framing removed).
    pub body: Vec<u8>,
    /// Every byte read from the socket for this request.
    pub raw: Vec<u8>,
}

impl Received {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).expect("upstream got JSON")
    }
}

/// What the upstream answers.
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    /// Body pieces written one by one with a flush and the given pause before each.
    pub chunks: Vec<(Duration, Vec<u8>)>,
    /// Send `Transfer-Encoding: chunked` instead of `Content-Length`.
    pub chunked: bool,
    /// Stop after this many body bytes and close the connection (the header still
    /// announces the whole body): an upstream failing mid-body.
    pub cut_after: Option<usize>,
}

impl Reply {
    pub fn json(value: &serde_json::Value) -> Reply {
        Reply {
            status: 200,
            headers: vec![("content-type".into(), "application/json".into())],
            chunks: vec![(Duration::ZERO, value.to_string().into_bytes())],
            chunked: false,
            cut_after: None,
        }
    }

    /// `body` as it is, with `content-type` and extra headers.
    pub fn bytes(content_type: &str, body: Vec<u8>, headers: &[(&str, &str)]) -> Reply {
        let mut all = vec![("content-type".to_owned(), content_type.to_owned())];
        all.extend(
            headers
                .iter()
                .map(|(n, v)| ((*n).to_owned(), (*v).to_owned())),
        );
        Reply {
            status: 200,
            headers: all,
            chunks: vec![(Duration::ZERO, body)],
            chunked: false,
            cut_after: None,
        }
    }

    pub fn sse(pieces: Vec<Vec<u8>>, pause: Duration) -> Reply {
        Reply {
            status: 200,
            headers: vec![("content-type".into(), "text/event-stream".into())],
            chunks: pieces.into_iter().map(|p| (pause, p)).collect(),
            chunked: true,
            cut_after: None,
        }
    }
}

type Handler = dyn Fn(&Received) -> Reply + Send + Sync;

pub struct Upstream {
    pub addr: String,
    received: Arc<Mutex<Vec<Received>>>,
    connections: Arc<AtomicUsize>,
}

impl Upstream {
    /// Answers each request on its own connection (`connection: close`).
    pub fn start(handler: impl Fn(&Received) -> Reply + Send + Sync + 'static) -> Upstream {
        Self::spawn(handler, false, false)
    }

    /// Keeps connections alive: serves requests on a connection until the client
    /// closes it.
    pub fn keep_alive(handler: impl Fn(&Received) -> Reply + Send + Sync + 'static) -> Upstream {
        Self::spawn(handler, true, true)
    }

    /// Misbehaves: announces keep-alive (HTTP/1.1, no `connection: close`) but closes
    /// every connection after one answer, as an upstream whose idle timeout is shorter
    /// than a pool's does.
    pub fn closing_quietly(
        handler: impl Fn(&Received) -> Reply + Send + Sync + 'static,
    ) -> Upstream {
        Self::spawn(handler, true, false)
    }

    /// Misbehaves: answers the first request of each connection and keeps it alive, then
    /// resets the connection when the next request's first bytes arrive (closed with
    /// them unread, so the kernel answers with a reset), as an upstream whose idle
    /// timeout fires just as a pooled connection is reused. Every reuse meets it.
    pub fn resetting_reused(
        handler: impl Fn(&Received) -> Reply + Send + Sync + 'static,
    ) -> Upstream {
        Self::spawn_with(handler, true, true, Some(1))
    }

    fn spawn(
        handler: impl Fn(&Received) -> Reply + Send + Sync + 'static,
        announce_keep_alive: bool,
        keep_alive: bool,
    ) -> Upstream {
        Self::spawn_with(handler, announce_keep_alive, keep_alive, None)
    }

    fn spawn_with(
        handler: impl Fn(&Received) -> Reply + Send + Sync + 'static,
        announce_keep_alive: bool,
        keep_alive: bool,
        reset_after: Option<usize>,
    ) -> Upstream {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind upstream");
        let addr = listener.local_addr().expect("addr").to_string();
        let received = Arc::new(Mutex::new(Vec::new()));
        let connections = Arc::new(AtomicUsize::new(0));
        let handler: Arc<Handler> = Arc::new(handler);
        let log = Arc::clone(&received);
        let count = Arc::clone(&connections);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                count.fetch_add(1, Ordering::SeqCst);
                let handler = Arc::clone(&handler);
                let log = Arc::clone(&log);
                std::thread::spawn(move || {
                    let mut reader = match stream.try_clone() {
                        Ok(s) => BufReader::new(s),
                        Err(_) => return,
                    };
                    let mut served = 0;
                    while reset_after != Some(served)
                        && serve(&mut reader, &stream, &*handler, &log, announce_keep_alive)
                        && keep_alive
                    {
                        served += 1;
                    }
                    if reset_after == Some(served) {
                        // Wait for the next request without reading it; dropping both
                        // handles then closes the socket with data unread: a reset.
                        let _ = stream.peek(&mut [0u8; 1]);
                    }
                });
            }
        });
        Upstream {
            addr,
            received,
            connections,
        }
    }

    /// Connections accepted so far.
    pub fn connections(&self) -> usize {
        self.connections.load(Ordering::SeqCst)
    }

    /// An upstream that answers every request with `{"ok": true}` and records it.
    pub fn sink() -> Upstream {
        Upstream::start(|_| Reply::json(&serde_json::json!({"ok": true})))
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub fn received(&self) -> Vec<Received> {
        self.received.lock().expect("lock").clone()
    }

    /// Every byte any request brought, for "this never arrived" assertions.
    pub fn all_bytes(&self) -> String {
        self.received()
            .iter()
            .map(|r| String::from_utf8_lossy(&r.raw).into_owned())
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// Serves one request; `true` when the connection can carry another.
fn serve(
    reader: &mut BufReader<TcpStream>,
    stream: &TcpStream,
    handler: &Handler,
    log: &Mutex<Vec<Received>>,
    announce_keep_alive: bool,
) -> bool {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let mut writer = match stream.try_clone() {
        Ok(w) => w,
        Err(_) => return false,
    };
    let mut raw = Vec::new();
    let mut line = String::new();
    if reader.read_line(&mut line).unwrap_or(0) == 0 {
        return false;
    }
    raw.extend_from_slice(line.as_bytes());
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or("").to_owned();
    let path = parts.next().unwrap_or("").to_owned();
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).unwrap_or(0) == 0 {
            break;
        }
        raw.extend_from_slice(h.as_bytes());
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        if let Some((n, v)) = h.split_once(':') {
            headers.push((n.trim().to_ascii_lowercase(), v.trim().to_owned()));
        }
    }
    let get = |name: &str| {
        headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
    };
    let mut body = Vec::new();
    let mut complete = true;
    if get("transfer-encoding").is_some_and(|v| v.contains("chunked")) {
        loop {
            let mut size = String::new();
            if reader.read_line(&mut size).unwrap_or(0) == 0 {
                complete = false;
                break;
            }
            raw.extend_from_slice(size.as_bytes());
            let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
            let mut chunk = vec![0; n + 2];
            if reader.read_exact(&mut chunk).is_err() {
                complete = false;
                break;
            }
            raw.extend_from_slice(&chunk);
            if n == 0 {
                break;
            }
            body.extend_from_slice(&chunk[..n]);
        }
    } else if let Some(n) = get("content-length").and_then(|v| v.parse::<usize>().ok()) {
        body.resize(n, 0);
        if reader.read_exact(&mut body).is_err() {
            complete = false;
        }
        raw.extend_from_slice(&body);
    }
    let request = Received {
        method,
        path,
        headers,
        body,
        raw,
    };
    log.lock().expect("lock").push(request.clone());
    if !complete {
        return false;
    }
    let reply = handler(&request);
    let mut head = format!("HTTP/1.1 {} X\r\n", reply.status);
    if !announce_keep_alive {
        head.push_str("connection: close\r\n");
    }
    for (n, v) in &reply.headers {
        head.push_str(&format!("{n}: {v}\r\n"));
    }
    if reply.chunked {
        head.push_str("transfer-encoding: chunked\r\n\r\n");
    } else {
        let len: usize = reply.chunks.iter().map(|(_, c)| c.len()).sum();
        head.push_str(&format!("content-length: {len}\r\n\r\n"));
    }
    if writer.write_all(head.as_bytes()).is_err() {
        return false;
    }
    let _ = writer.flush();
    let mut budget = reply.cut_after.unwrap_or(usize::MAX);
    for (pause, chunk) in &reply.chunks {
        std::thread::sleep(*pause);
        let chunk = &chunk[..chunk.len().min(budget)];
        budget -= chunk.len();
        let ok = if chunk.is_empty() {
            // An empty chunk would end a chunked body.
            Ok(())
        } else if reply.chunked {
            writer
                .write_all(format!("{:x}\r\n", chunk.len()).as_bytes())
                .and_then(|_| writer.write_all(chunk))
                .and_then(|_| writer.write_all(b"\r\n"))
        } else {
            writer.write_all(chunk)
        };
        if ok.and_then(|_| writer.flush()).is_err() {
            return false;
        }
        if budget == 0 {
            // Misbehave: the connection ends mid-body.
            let _ = stream.shutdown(std::net::Shutdown::Both);
            return false;
        }
    }
    if reply.chunked {
        let _ = writer.write_all(b"0\r\n\r\n");
    }
    writer.flush().is_ok()
}
