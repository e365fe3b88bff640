// `Lifetrace.start()` and `Lifetrace.stop()` in a process of their own (the recorder is one per
// process), for `LifetraceStartTests`.
//
// Usage: LifetraceStartProbe DIRECTORY
// Starts recording into DIRECTORY, starts again with the same configuration and with another
// one, marks "BeforeStop", stops, marks "AfterStop", starts again; prints each call's result on a
// line of its own ("start true", ...), and after the stop the files in DIRECTORY ("files ...").
import Foundation
import Lifetrace

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: LifetraceStartProbe DIRECTORY\n".utf8))
    exit(2)
}
let configuration = Lifetrace.Configuration(directory: arguments[1])
print("start", Lifetrace.start(configuration))
print("start same", Lifetrace.start(configuration))
print("start other", Lifetrace.start(Lifetrace.Configuration(directory: arguments[1] + "/other")))
Lifetrace.mark("BeforeStop")
print("stop", Lifetrace.stop())
Lifetrace.mark("AfterStop")
let files = (try? FileManager.default.contentsOfDirectory(atPath: arguments[1])) ?? []
print("files", files.sorted().joined(separator: " "))
print("start after stop", Lifetrace.start(configuration))
print("stop again", Lifetrace.stop())
