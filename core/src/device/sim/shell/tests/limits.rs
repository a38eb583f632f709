//! The sim's shell within its bounds: files that commands write share the pushes' limits,
//! pipes hold a bounded amount, and a command stops writing once its caller hangs up.

use std::sync::atomic::Ordering;

use super::super::*;
use super::{Collected, run, shell};
use crate::stability::VirtualClock;

fn small_limits() -> SimShell<VirtualClock> {
    let mut shell = shell();
    shell.file_limits = push::FileLimits {
        file: 100_000,
        total: 250_000,
        pipe: 50_000,
    };
    shell
}

#[test]
fn a_file_tripled_thirty_times_stops_at_its_limit_and_the_sim_goes_on() {
    let shell = small_limits();
    assert_eq!(run(&shell, "echo x > /sdcard/a").0, 0);
    let mut refusals = 0;
    for _ in 0..30 {
        let (status, _, err) = run(&shell, "cat /sdcard/a /sdcard/a >> /sdcard/a");
        if status != 0 {
            assert_eq!(status, 1);
            assert!(
                err.starts_with("cat: write error: File too large: the sim keeps files of up to"),
                "{err}"
            );
            refusals += 1;
        }
    }
    // 2 × 3^n bytes: the tenth tripling (118,098) is the first past 100,000.
    assert_eq!(refusals, 21);
    assert_eq!(shell.stat("/sdcard/a").unwrap().size, 2 * 3u64.pow(9));
    assert_eq!(run(&shell, "echo still here").1, "still here\n");
}

#[test]
fn files_written_by_commands_share_one_total_with_pushes() {
    let shell = small_limits();
    let mut pushed = shell.push("/data/local/tmp/pushed", 0o644).unwrap();
    pushed.write(&[7; 90_000]).unwrap();
    Box::new(pushed).finish(1).unwrap();
    assert_eq!(run(&shell, "cat /data/local/tmp/pushed > /sdcard/b").0, 0);
    let (status, _, err) = run(&shell, "cat /data/local/tmp/pushed > /sdcard/c");
    assert_eq!(status, 1);
    assert!(err.contains("No space left on device"), "{err}");
    assert!(err.contains("at most 244 KiB of files"), "{err}");
    assert!(err.contains("remove some (`rm FILE`)"), "{err}");
    assert_eq!(shell.stat("/sdcard/c"), None);
    // The refusal is the command's: what follows runs, and `rm` makes room again.
    let (status, out, _) = run(&shell, "cat /sdcard/nothing > /sdcard/e; echo $?; echo ok");
    assert_eq!((status, out.as_str()), (0, "1\nok\n"));
    let made_room = run(
        &shell,
        "rm /sdcard/b && cat /data/local/tmp/pushed > /sdcard/c",
    );
    assert_eq!(made_room.0, 0, "{made_room:?}");
    // A push refused for room, too, once the files hold it all.
    let mut late = shell.push("/sdcard/late", 0o644).unwrap();
    assert!(
        late.write(&[0; 90_000])
            .unwrap_err()
            .contains("No space left")
    );
}

#[test]
fn screencap_into_a_full_memory_is_refused() {
    let shell = small_limits();
    let mut refused = None;
    for n in 0..20 {
        let (status, _, err) = run(&shell, &format!("screencap -p /sdcard/s{n}.png"));
        if status != 0 {
            refused = Some((status, err));
            break;
        }
    }
    let (status, err) = refused.expect("a full memory refuses a screencap");
    assert_eq!(status, 1);
    assert!(err.starts_with("screencap: write error: "), "{err}");
    assert_eq!(run(&shell, "echo on").1, "on\n");
}

#[test]
fn a_pipe_holds_a_bounded_amount() {
    let shell = small_limits();
    run(&shell, "echo x > /sdcard/a");
    for _ in 0..15 {
        run(&shell, "cat /sdcard/a /sdcard/a >> /sdcard/a");
    }
    // 39,366 bytes pass the 50,000-byte pipe; two copies do not.
    let (status, out, _) = run(&shell, "cat /sdcard/a | md5sum");
    assert_eq!((status, out.len()), (0, 36));
    let (status, out, err) = run(&shell, "cat /sdcard/a /sdcard/a | grep -c x; echo $?");
    assert!(
        err.starts_with("cat: write error: Broken pipe: the sim's pipes hold at most 48 KiB"),
        "{err}"
    );
    // grep still reads what the pipe held, and the line goes on.
    assert_eq!((status, out.as_str()), (0, "19683\n0\n"));
}

/// A caller that hangs up after its first write.
struct HangsUp(Collected);

impl CommandOutput for HangsUp {
    fn stdout(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.0.closed.store(true, Ordering::SeqCst);
        self.0.stdout(bytes)
    }
    fn stderr(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.0.stderr(bytes)
    }
    fn closed(&self) -> bool {
        self.0.closed()
    }
}

#[test]
fn commands_stop_once_their_caller_hangs_up() {
    let shell = shell();
    run(&shell, "echo 12345 > /sdcard/a");
    let mut caller = HangsUp(Collected::default());
    shell.run(
        "cat /sdcard/a /sdcard/a /sdcard/a; echo next; cat /sdcard/a",
        &mut caller,
    );
    assert_eq!(String::from_utf8_lossy(&caller.0.out), "12345\n");
    assert_eq!(String::from_utf8_lossy(&caller.0.err), "");
}
