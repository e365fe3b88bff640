import Foundation
import LifetraceTestSupport
import Testing
import Yams

/// The worked CI jobs of docs/REPORTS.md and docs/IOS.md upload what their page needs: the
/// report is made as the job makes it, only what the upload step's `path` names is kept, and
/// every link of the page leads to a file that was kept.
@Suite struct CIExampleUploadTests {
    static let root = UsageMessagesTests.root

    /// The YAML blocks of a page that hold a GitHub Actions job.
    static func workflows(in page: String) throws -> [Node] {
        let text = try String(contentsOfFile: root + "/" + page, encoding: .utf8)
        var blocks: [String] = []
        var current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```yaml" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(String(line))
            }
        }
        return try blocks.filter { $0.contains("jobs:") }.compactMap { try Yams.compose(yaml: $0) }
    }

    /// Every step of every job of `workflow`.
    static func steps(_ workflow: Node) -> [Node] {
        workflow["jobs"]?.mapping?.values.flatMap { $0["steps"]?.sequence.map(Array.init) ?? [] } ?? []
    }

    /// The paths an upload step keeps of the page `page`'s artifact: its `path` lines.
    static func uploadSet(_ workflow: Node, of page: String) -> [String]? {
        for step in steps(workflow) where step["uses"]?.string?.hasPrefix("actions/upload-artifact") == true {
            guard let path = step["with"]?["path"]?.string else { continue }
            let paths = path.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            if paths.contains(page) { return paths }
        }
        return nil
    }

    /// The `report ... --format html -o PAGE` command of a job's steps: its page.
    static func reportPage(_ workflow: Node) -> String? {
        for step in steps(workflow) {
            guard let run = step["run"]?.string else { continue }
            for line in run.split(separator: "\n") where line.contains(" report ") && line.contains("--format html") {
                let words = line.split(separator: " ").map(String.init)
                if let index = words.firstIndex(of: "-o"), index + 1 < words.count { return words[index + 1] }
            }
        }
        return nil
    }

    @Test("the CI job's artifact holds every page its report links to", arguments: ["docs/REPORTS.md", "docs/IOS.md"])
    func uploadHoldsWhatThePageLinks(_ page: String) throws {
        let workflows = try Self.workflows(in: page)
        let jobs = workflows.compactMap { workflow in Self.reportPage(workflow).map { (workflow, $0) } }
        try #require(!jobs.isEmpty, "no job of \(page) makes an HTML report")
        for (workflow, html) in jobs {
            let upload = try #require(Self.uploadSet(workflow, of: html), "\(page): no upload step keeps \(html)")
            let directory = try ScratchDirectory.make("ci-upload")
            defer { try? FileManager.default.removeItem(atPath: directory) }
            // The report as the job makes it, of several runs.
            let made = try ChildProcess.run(
                "/usr/bin/env", ["-C", directory, LifetraceCommand.path, "report", "--no-config", Self.root + "/Samples/launches/baseline",
                    "--format", "html", "-o", html])
            #expect(made.status == 0, "\(made.error)")
            // Only what the upload keeps.
            let artifact = directory + "/artifact"
            try FileManager.default.createDirectory(atPath: artifact, withIntermediateDirectories: true)
            for path in upload {
                let name = path.hasSuffix("/") ? String(path.dropLast()) : path
                if FileManager.default.fileExists(atPath: directory + "/" + name) {
                    try FileManager.default.copyItem(atPath: directory + "/" + name, toPath: artifact + "/" + name)
                }
            }
            let document = try String(contentsOfFile: artifact + "/" + html, encoding: .utf8)
            let links = Self.relativeLinks(document)
            #expect(links.count >= 2, "\(page): the page links no run")
            for link in links {
                let file = link.split(separator: "#", maxSplits: 1).first.map(String.init) ?? link
                let decoded = file.removingPercentEncoding ?? file
                #expect(FileManager.default.fileExists(atPath: artifact + "/" + decoded), "\(page): \(link) is not in the artifact \(upload)")
            }
        }
    }

    /// The `href` values of `html` that point at files beside it (not anchors, not URLs).
    static func relativeLinks(_ html: String) -> Set<String> {
        var links: Set<String> = []
        var rest = html[...]
        while let start = rest.range(of: "href=\"") {
            rest = rest[start.upperBound...]
            guard let end = rest.firstIndex(of: "\"") else { break }
            let link = String(rest[..<end])
            if !link.hasPrefix("#"), !link.contains("://"), !link.hasPrefix("data:") { links.insert(link) }
            rest = rest[end...]
        }
        return links
    }
}
