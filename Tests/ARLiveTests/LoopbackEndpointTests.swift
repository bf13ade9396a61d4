import ARLive
import ARSimCLI
import ARTestSupport
import Testing

@Suite struct LoopbackEndpointTests {
  @Test(
    "127.0.0.0/8 and localhost are accepted",
    arguments: [
      ("127.0.0.1", "127.0.0.1:80"), ("127.1.2.3", "127.1.2.3:80"), ("localhost", "127.0.0.1:80"),
      ("127.255.255.254", "127.255.255.254:80"),
    ])
  func accepted(host: String, description: String) throws {
    #expect(try LoopbackEndpoint(host: host, port: 80).description == description)
  }

  @Test(
    "other hosts are refused",
    arguments: [
      "0.0.0.0", "10.0.0.1", "192.168.1.20", "128.0.0.1", "::1", "example.com", "127.0.0.1.5",
      "127.0.0", "256.0.0.1", "127.0.0.-1", "", "127.0.0.1 ",
    ])
  func refused(host: String) {
    #expect(throws: LoopbackEndpoint.NotLoopback.self) {
      try LoopbackEndpoint(host: host, port: 80)
    }
  }

  @Test(
    "127.0.0.0/8's network and broadcast addresses are refused: they name no host",
    arguments: ["127.0.0.0", "127.255.255.255"])
  func notAHost(host: String) {
    #expect {
      try LoopbackEndpoint(host: host, port: 80)
    } throws: { error in
      "\(error)".contains("the network or broadcast address of 127.0.0.0/8, not a host")
    }
  }

  @Test("the commands refuse a non-loopback host with a usage error (64)")
  func commandsRefuse() {
    let captured = CapturedOutput()
    let receive = run(
      arguments: [
        "receive", "--host", "192.168.1.20", "--port", "0", "--peer-token", "a", "--my-token",
        "b", "--out", "/tmp/never",
      ], output: captured.output)
    #expect(receive == 64)
    #expect(captured.standardError.contains("not a loopback address"))
    let send = run(
      arguments: ["strokes", "send", "x.jsonl", "--host", "8.8.8.8", "--port", "9"],
      output: captured.output)
    #expect(send == 64)
  }
}
