// Decisions only: nothing in this file resolves a name or opens a socket.
import { describe, expect, it } from "vitest";
import { trustedRangesFromEnv } from "../config.js";
import { checkRemoteUrl } from "./check-url.js";
import { classifyAddress } from "./classify-address.js";
import { RemoteFetchError } from "./remote-fetch-error.js";
import { parseTrustedRanges } from "./trusted-ranges.js";

describe("classifyAddress refuses every special-purpose range", () => {
  const refused: Array<[string, string]> = [
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["::1", "loopback"],
    ["[::1]", "loopback"],
    ["10.0.0.1", "private"],
    ["10.255.255.255", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.254", "private"],
    ["192.168.0.1", "private"],
    ["169.254.169.254", "linkLocal"],
    ["169.254.0.1", "linkLocal"],
    ["100.64.0.1", "carrierGradeNat"],
    ["100.127.255.254", "carrierGradeNat"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["::", "unspecified"],
    ["255.255.255.255", "broadcast"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["ff02::1", "multicast"],
    ["192.0.0.8", "reserved"],
    ["192.0.2.1", "reserved"],
    ["198.51.100.7", "reserved"],
    ["203.0.113.9", "reserved"],
    ["240.0.0.1", "reserved"],
    ["198.18.0.1", "reserved"],
    ["2001:2::1", "benchmarking"],
    ["2001:db8::1", "reserved"],
    ["3fff::1", "reserved"],
    ["fd00::1", "uniqueLocal"],
    ["fc00::1", "uniqueLocal"],
    ["fe80::1", "linkLocal"],
    ["fec0::1", "deprecatedSiteLocal"],
    ["100::1", "discard"],
    ["2002:a00:1::1", "6to4"],
    ["2002:5db8:d822::1", "6to4"],
    ["2001:0:4136:e378:8000:63bf:f5ff:fffe", "teredo"],
    ["64:ff9b:1::a00:1", "rfc6052"],
    ["::7f00:1", "notGlobalUnicast"],
    ["::ffff:0:7f00:1", "rfc6145"],
  ];
  it.each(refused)("%s is refused (%s)", (address, range) => {
    const decision = classifyAddress(address);
    expect(decision.allowed).toBe(false);
    expect(decision.range).toBe(range);
    expect(decision.reason).toContain(address);
  });

  it.each([
    ["::ffff:127.0.0.1", "127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "127.0.0.1", "loopback"],
    ["::ffff:10.0.0.1", "10.0.0.1", "private"],
    ["::ffff:169.254.169.254", "169.254.169.254", "linkLocal"],
    ["::ffff:100.64.0.1", "100.64.0.1", "carrierGradeNat"],
    ["64:ff9b::a00:1", "10.0.0.1", "private"],
    ["64:ff9b::7f00:1", "127.0.0.1", "loopback"],
  ])("%s is unwrapped to %s and refused (%s)", (address, embedded, range) => {
    const decision = classifyAddress(address);
    expect(decision).toMatchObject({ allowed: false, range, embeddedIPv4: embedded });
  });

  it("reports the IPv4 a 6to4 or Teredo address carries", () => {
    expect(classifyAddress("2002:a00:1::1").embeddedIPv4).toBe("10.0.0.1");
    // Teredo client 1.2.3.4 is stored inverted in the low 32 bits.
    expect(classifyAddress("2001:0:4136:e378:8000:63bf:fefd:fcfb").embeddedIPv4).toBe("1.2.3.4");
  });

  it.each([
    "2130706433",
    "0177.0.0.1",
    "0x7f.1",
    "0x7f000001",
    "127.1",
    "127.0.1",
    "localhost",
    "",
    "fe80::1%eth0",
  ])("refuses %j as not a plain IP literal (fail closed)", (input) => {
    expect(classifyAddress(input)).toMatchObject({ allowed: false, range: "invalid" });
  });
});

describe("classifyAddress allows public unicast", () => {
  it.each([
    "93.184.216.34",
    "8.8.8.8",
    "1.1.1.1",
    "172.32.0.1",
    "100.128.0.1",
    "192.169.0.1",
    "2606:4700:4700::1111",
    "2a00:1450:4001:80b::200e",
    "::ffff:93.184.216.34",
    "64:ff9b::5db8:d822",
  ])("%s is allowed", (address) => {
    expect(classifyAddress(address)).toMatchObject({ allowed: true, trusted: false });
  });
});

describe("trusted ranges", () => {
  it("allow exactly the named ranges", () => {
    const trustedRanges = parseTrustedRanges("127.0.0.0/8, ::1/128");
    expect(classifyAddress("127.0.0.1", { trustedRanges })).toMatchObject({ allowed: true, trusted: true });
    expect(classifyAddress("127.9.9.9", { trustedRanges })).toMatchObject({ allowed: true, trusted: true });
    expect(classifyAddress("::1", { trustedRanges })).toMatchObject({ allowed: true, trusted: true });
    // IPv4-mapped forms are matched on the IPv4 they carry.
    expect(classifyAddress("::ffff:127.0.0.1", { trustedRanges })).toMatchObject({
      allowed: true,
      trusted: true,
    });
    expect(classifyAddress("10.0.0.1", { trustedRanges }).allowed).toBe(false);
    expect(classifyAddress("0.0.0.0", { trustedRanges }).allowed).toBe(false);
    expect(classifyAddress("169.254.169.254", { trustedRanges }).allowed).toBe(false);
  });

  it("accept arrays, bare addresses and the environment variable", () => {
    expect(classifyAddress("10.1.2.3", { trustedRanges: ["10.1.2.3"] }).allowed).toBe(true);
    expect(classifyAddress("10.1.2.4", { trustedRanges: ["10.1.2.3"] }).allowed).toBe(false);
    const fromEnv = trustedRangesFromEnv({ TROVE_TRUSTED_RANGES: "192.168.10.0/24" });
    expect(fromEnv.source).toEqual(["192.168.10.0/24"]);
    expect(classifyAddress("192.168.10.20", { trustedRanges: fromEnv }).allowed).toBe(true);
    expect(trustedRangesFromEnv({}).ranges).toHaveLength(0);
  });

  it.each(["127.0.0.0/33", "not-an-ip", "0177.0.0.0/8", "127.1/8", "10.0.0.0/8,nope"])(
    "reject the invalid entry %j loudly",
    (entry) => {
      expect(() => parseTrustedRanges(entry)).toThrow(TypeError);
    },
  );
});

describe("checkRemoteUrl (before any DNS or connect)", () => {
  const forbidden = (url: string, options = {}) => {
    try {
      checkRemoteUrl(url, options);
    } catch (error) {
      expect(error).toBeInstanceOf(RemoteFetchError);
      expect(error).toMatchObject({ code: "REMOTE_URL_FORBIDDEN", status: 400 });
      return (error as RemoteFetchError).message;
    }
    throw new Error(`${url} was accepted`);
  };

  it.each([
    "http://127.0.0.1/",
    "http://[::1]/",
    "http://2130706433/",
    "http://0177.0.0.1/",
    "http://0x7f.1/",
    "http://0x7f000001/",
    "http://127.1/",
    "http://127.0.0.1./",
    "http://0.0.0.0:8080/",
    "http://0/",
    "http://[::ffff:127.0.0.1]/",
    "http://[0:0:0:0:0:ffff:7f00:1]/",
    "http://10.0.0.1/",
    "http://012.0.0.1/",
    "http://0xa.0.0.1/",
    "http://167772161/",
    "http://172.16.0.1/",
    "http://192.168.0.1/",
    "http://169.254.169.254/latest/meta-data/",
    "http://0xa9.0xfe.0xa9.0xfe/",
    "http://100.64.0.1/",
    "http://[fd00::1]/",
    "http://[fe80::1]/",
    "http://[::ffff:10.0.0.1]/",
  ])("refuses the IP-literal host of %s after WHATWG normalisation", (url) => {
    expect(forbidden(url)).toBe(
      "remote_url resolves to a private or loopback address; set TROVE_TRUSTED_RANGES on the server to allow its range (e.g. 127.0.0.0/8)",
    );
  });

  it.each([
    "ftp://example.com/x",
    "file:///etc/passwd",
    "gopher://example.com/",
    "data:text/plain,hi",
    "javascript:1",
  ])("refuses the scheme of %s", (url) => {
    expect(forbidden(url)).toMatch(/http or https/);
  });

  it("refuses credentials and unparseable input", () => {
    expect(forbidden("http://user:pass@example.com/")).toMatch(/credentials/);
    expect(forbidden("http://user@example.com/")).toMatch(/credentials/);
    expect(forbidden("not a url")).toMatch(/absolute/);
    expect(forbidden("/relative/path")).toMatch(/absolute/);
  });

  it("uses the given field name in messages", () => {
    expect(forbidden("http://10.0.0.1/", { label: "webhook_url" })).toBe(
      "webhook_url resolves to a private or loopback address; set TROVE_TRUSTED_RANGES on the server to allow its range (e.g. 127.0.0.0/8)",
    );
  });

  it("accepts public literals, names (checked later, at connect) and trusted literals", () => {
    expect(checkRemoteUrl("https://93.184.216.34/a.jpg").hostname).toBe("93.184.216.34");
    expect(checkRemoteUrl("https://images.example.com/a.jpg").hostname).toBe("images.example.com");
    expect(checkRemoteUrl("http://2130706433:8080/", { trustedRanges: ["127.0.0.0/8"] }).host).toBe(
      "127.0.0.1:8080",
    );
  });
});
