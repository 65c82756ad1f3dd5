import AccessoryPlatform
import Glibc

// An app or a picker agent for the service's tests, in a process of its own
// so that it can be another unix user or group set (started under setpriv),
// or change its groups after connecting. It speaks the contract through
// AccessoryWire's declarations, on one connection, one step after another:
//
//   accessory-test-client ADDRESS STEP [-- STEP]...
//
//   call PATH INTERFACE METHOD ARG...
//                      a declared method with basic arguments (s o u q b; `as` as WORD,WORD;
//                      `a{ss}` as KEY=VALUE,KEY=VALUE), typed by its
//                      declaration; `session` is the last session opened, `accessory` the
//                      last accessory AccessoryAdded named; prints the
//                      reply's arguments (`ok` for none) or `error NAME`
//   call-later PATH INTERFACE METHOD ARG...
//                      as `call`, without waiting: the answer is heard as `reply ...` (see `until`)
//   admin METHOD ARG...
//                      an Admin1 call; a refusal prints its name and message
//   session            opens a session and activates it; prints only an error
//   show NAME KEY=VALUE... [settings KEY=VALUE...] [options WORD...] [renames WORD...]
//                      ShowPicker for one display item; prints as `call` does
//   migrate NAME ADDRESS SSID [KEY=VALUE...] [and NAME ADDRESS SSID [KEY=VALUE...]]...
//                      Migrate these known accessories; prints as `call` does
//   update CANDIDATE NAME [IMAGE]
//                      UpdatePicker showing one candidate under NAME; prints as `call` does
//   until MEMBER...    prints the signals heard (`signal MEMBER ARG...`) up to one of these
//   listen FILE        prints the signals heard until FILE exists
//   objects            prints the paths GetManagedObjects lists, sorted
//   explain            from here on, a failed call prints the error's message too
//   wait FILE          waits for FILE to exist (the test's go-ahead)
//   mark FILE          makes FILE (tells the test the client got this far)
//   setgroups GID...   sets the supplementary groups (needs CAP_SETGID)
//   serve PATH [approving] [answering WORD]
//                      a picker agent at PATH: its calls are heard as signals are (`MEMBER ARG...`);
//                      `approving` approves each candidate it is told of (heard as `approve PATH`);
//                      `answering WORD` answers each pairing question with WORD (heard as `answered`)
//   name               prints the connection's unique name
//
// Values print as text: `ay` in hex, arrays in brackets, structs in
// parentheses, dictionaries in braces, a variant as its value.

let arguments = Array(CommandLine.arguments.dropFirst())
guard let address = arguments.first else {
    StandardError.write("usage: accessory-test-client ADDRESS STEP [-- STEP]...\n")
    exit(2)
}
do {
    let client = try TestClient(address: address)
    for step in arguments.dropFirst().split(separator: "--") { try client.take(Array(step)) }
} catch {
    StandardError.write("accessory-test-client: \(error)\n")
    exit(1)
}
