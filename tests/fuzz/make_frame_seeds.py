#!/usr/bin/env python3
"""Writes the seed corpus of frame_fuzz: frames a real host may send, built byte by byte from
the specifications (RFC 826 ARP, RFC 791 IPv4, RFC 768 UDP, IBA BTH/AETH, 802.1Qbb PFC), the
same layouts tests/e2e/raw_frames.cc sends. Each seed is one input: frames each preceded by a
2-byte big-endian length (frame_fuzz.cc).

  tests/fuzz/make_frame_seeds.py tests/fuzz/corpus/frame_fuzz
"""
import pathlib
import struct
import sys

HOST_MAC = bytes([0x52, 0x54, 0x00, 0x12, 0x34, 0x56])  # the real host's NIC
PFC_MAC = bytes([0x01, 0x80, 0xC2, 0x00, 0x00, 0x01])


def fabric_mac(host):
    return bytes([0x02, 0xFE, 0x00, host >> 16 & 0xFF, host >> 8 & 0xFF, host & 0xFF])


def host_ip(host):
    return struct.pack("!I", 0xC6120000 + 1 + host)  # 198.18.0.0/15, host i at + 1 + i


def eth(dst, ether_type, src=HOST_MAC):
    return dst + src + struct.pack("!H", ether_type)


def checksum(header):
    s = sum(struct.unpack("!%dH" % (len(header) // 2), header))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def ipv4(src, dst, payload, proto=17, tos=0, ttl=64, version_ihl=0x45, options=b""):
    header = struct.pack("!BBHHHBBH4s4s", version_ihl, tos, 20 + len(options) + len(payload), 0,
                         0x4000, ttl, proto, 0, host_ip(src), host_ip(dst)) + options
    header = header[:10] + struct.pack("!H", checksum(header)) + header[12:]
    return header + payload


def udp(dst_port, payload, src_port=49152):
    return struct.pack("!HHHH", src_port, dst_port, 8 + len(payload), 0) + payload


def bth(opcode, dest_qp, psn, ack_req=False):
    return struct.pack("!BBHI", opcode, 0, 0xFFFF, dest_qp & 0xFFFFFF) + struct.pack(
        "!I", (0x80000000 if ack_req else 0) | (psn & 0xFFFFFF))


def roce(src, dst, payload, tos=(26 << 2) | 2):
    frame = eth(fabric_mac(dst), 0x0800) + ipv4(src, dst, udp(4791, payload), tos=tos)
    return frame


def pad(frame):
    return frame + bytes(max(0, 60 - len(frame)))


def arp_request(target):
    body = struct.pack("!HHBBH", 1, 0x0800, 6, 4, 1) + HOST_MAC + host_ip(0) + bytes(6) + \
        host_ip(target)
    return pad(eth(b"\xff" * 6, 0x0806) + body)


def pfc(class_enable, quanta):
    return pad(eth(PFC_MAC, 0x8808) + struct.pack("!HH8H", 0x0101, class_enable, *quanta))


QP = 0x100  # the first QP: the emulated message from host 2 to host 3 in frame_fuzz.cc
ICRC = bytes(4)
SEEDS = {
    "arp_request": [arp_request(5)],
    "arp_then_udp": [arp_request(1), pad(eth(fabric_mac(1), 0x0800) +
                                         ipv4(0, 1, udp(5000, bytes(18))))],
    "udp_to_real_host": [pad(eth(fabric_mac(1), 0x0800) + ipv4(0, 1, udp(5000, bytes(18))))],
    "udp_ttl_3": [pad(eth(fabric_mac(15), 0x0800) + ipv4(0, 15, udp(5000, bytes(18)), ttl=3))],
    "ipv4_options": [pad(eth(fabric_mac(1), 0x0800) +
                         ipv4(0, 1, udp(5000, bytes(8)), version_ihl=0x46, options=bytes(4)))],
    "tcp_ce": [pad(eth(fabric_mac(1), 0x0800) + ipv4(0, 1, bytes(20), proto=6, tos=3))],
    "roce_send_only": [roce(0, 1, bth(0x04, 0x111, 0) + bytes(1024) + ICRC)],
    "roce_data_to_emulated_qp": [roce(0, 3, bth(0x04, QP, 0, True) + bytes(256) + ICRC),
                                 roce(0, 3, bth(0x00, QP, 5) + bytes(256) + ICRC)],
    "roce_ack_to_emulated_qp": [roce(0, 2, bth(0x11, QP, 3) + b"\x1f\x00\x00\x01" + ICRC),
                                roce(0, 2, bth(0x11, QP, 1) + b"\x60\x00\x00\x00" + ICRC)],
    "roce_cnp": [roce(0, 2, bth(0x81, QP, 0) + bytes(16) + ICRC)],
    "pfc_pause_all": [pfc(0xFF, [0xFFFF] * 8), roce(0, 1, bth(0x04, 0x111, 0) + bytes(64) + ICRC)],
    "pfc_pause_then_resume": [pfc(0x08, [0, 0, 0, 100, 0, 0, 0, 0]), pfc(0x08, [0] * 8)],
    "runt": [eth(fabric_mac(1), 0x0800) + bytes([0x45] * 6)],
    "bad_ihl": [pad(eth(fabric_mac(1), 0x0800) + ipv4(0, 1, udp(5000, bytes(8)), version_ihl=0x43))],
    "not_ip": [eth(fabric_mac(1), 0x88B5) + bytes([0xAB] * 46)],
    "truncated_bth": [eth(fabric_mac(1), 0x0800) + ipv4(0, 1, udp(4791, bytes(4)))],
}


def main():
    out = pathlib.Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for name, frames in SEEDS.items():
        (out / name).write_bytes(b"".join(struct.pack("!H", len(f)) + f for f in frames))


if __name__ == "__main__":
    main()
