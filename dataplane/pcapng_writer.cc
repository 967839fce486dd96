#include "dataplane/pcapng_writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "dataplane/packet.h"

namespace fe::dp {

namespace {

// Block types and option codes of the pcapng specification (sections 4.1 to 4.3).
constexpr uint32_t kSectionHeaderBlock = 0x0A0D0D0A;
constexpr uint32_t kByteOrderMagic = 0x1A2B3C4D;
constexpr uint32_t kInterfaceDescriptionBlock = 1;
constexpr uint32_t kEnhancedPacketBlock = 6;
constexpr uint16_t kLinkTypeEthernet = 1;
constexpr uint16_t kOptEnd = 0;
constexpr uint16_t kOptIfName = 2;
constexpr uint16_t kOptIfTsresol = 9;
constexpr uint16_t kOptEpbFlags = 2;
constexpr uint8_t kTsresolNanoseconds = 9;  // 10^-9 s per timestamp unit

constexpr uint32_t Pad4(uint32_t n) { return (n + 3) & ~3u; }

}  // namespace

void PcapngWriter::Put(const void* data, size_t n) {
  if (n > 0 && std::fwrite(data, 1, n, f_) != n) failed_ = true;
}

StatusOr<std::unique_ptr<PcapngWriter>> PcapngWriter::Open(
    const std::string& path, const std::vector<std::string>& interfaces) {
  // O_NOFOLLOW: a symlink planted at the capture's name is refused, not written through.
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
  std::FILE* f = fd < 0 ? nullptr : ::fdopen(fd, "wb");
  if (f == nullptr) {
    if (fd >= 0) ::close(fd);
    return Status::Error("cannot write capture " + path);
  }
  std::unique_ptr<PcapngWriter> w(new PcapngWriter(f));

  const uint32_t shb_len = 28;
  const uint16_t version[2] = {1, 0};
  const int64_t section_length = -1;  // unknown
  w->Put(&kSectionHeaderBlock, 4);
  w->Put(&shb_len, 4);
  w->Put(&kByteOrderMagic, 4);
  w->Put(version, 4);
  w->Put(&section_length, 8);
  w->Put(&shb_len, 4);

  const uint8_t zeros[4] = {};
  for (const std::string& name : interfaces) {
    const auto name_len = static_cast<uint16_t>(name.size());
    const uint32_t options = 4 + Pad4(name_len) + 4 + 4 + 4;
    const uint32_t idb_len = 20 + options;
    const uint16_t link[2] = {kLinkTypeEthernet, 0};
    const uint32_t snap_len = 0;  // no limit
    w->Put(&kInterfaceDescriptionBlock, 4);
    w->Put(&idb_len, 4);
    w->Put(link, 4);
    w->Put(&snap_len, 4);
    const uint16_t name_opt[2] = {kOptIfName, name_len};
    w->Put(name_opt, 4);
    w->Put(name.data(), name_len);
    w->Put(zeros, Pad4(name_len) - name_len);
    const uint16_t tsresol_opt[2] = {kOptIfTsresol, 1};
    w->Put(tsresol_opt, 4);
    const uint8_t tsresol[4] = {kTsresolNanoseconds, 0, 0, 0};
    w->Put(tsresol, 4);
    const uint16_t end_opt[2] = {kOptEnd, 0};
    w->Put(end_opt, 4);
    w->Put(&idb_len, 4);
  }
  if (w->failed_) return Status::Error("cannot write capture " + path);
  return w;
}

PcapngWriter::~PcapngWriter() {
  if (f_ != nullptr) {
    Flush();
    std::fclose(f_);
  }
}

void PcapngWriter::Write(uint32_t interface, Time at, const rte_mbuf* m,
                         CaptureDirection direction) {
  const uint32_t stored = rte_pktmbuf_pkt_len(m);
  const uint32_t frame = stored + VirtualBytes(m);  // without FCS
  held_.push_back(
      Held{at, interface, frame, static_cast<uint32_t>(held_bytes_.size()), stored, direction});
  for (const rte_mbuf* seg = m; seg != nullptr; seg = seg->next) {
    const auto* p = rte_pktmbuf_mtod(seg, const uint8_t*);
    held_bytes_.insert(held_bytes_.end(), p, p + rte_pktmbuf_data_len(seg));
  }
  if (!hold_) Flush();
}

void PcapngWriter::Flush() {
  // Stable: frames of one time and interface keep the order they were written in.
  std::stable_sort(held_.begin(), held_.end(), [](const Held& a, const Held& b) {
    return a.at < b.at || (a.at == b.at && a.interface < b.interface);
  });
  for (const Held& h : held_) PutPacket(h);
  held_.clear();
  held_bytes_.clear();
}

void PcapngWriter::PutPacket(const Held& h) {
  // The fixed fields (28 bytes), the frame padded to 4, epb_flags (option code 2, 4 bytes: the
  // direction in bits 0-1) and the end of options (4 bytes), the block length again (4 bytes).
  const uint32_t block_len = 28 + Pad4(h.frame_bytes) + 12 + 4;
  const auto ts_ns = static_cast<uint64_t>(h.at.ps() / 1000);
  const uint32_t head[7] = {
      kEnhancedPacketBlock,         block_len,     h.interface,  static_cast<uint32_t>(ts_ns >> 32),
      static_cast<uint32_t>(ts_ns), h.frame_bytes, h.frame_bytes};
  Put(head, sizeof(head));
  Put(held_bytes_.data() + h.offset, h.stored_bytes);
  static constexpr uint8_t kZeros[512] = {};
  for (uint32_t left = Pad4(h.frame_bytes) - h.stored_bytes; left > 0;) {
    const uint32_t n = left < sizeof(kZeros) ? left : sizeof(kZeros);
    Put(kZeros, n);
    left -= n;
  }
  const uint32_t options[3] = {kOptEpbFlags | (4u << 16), static_cast<uint32_t>(h.direction),
                               kOptEnd};
  Put(options, sizeof(options));
  Put(&block_len, 4);
  ++packets_;
}

Status PcapngWriter::Close() {
  if (f_ == nullptr) return Status::Ok();
  Flush();
  const bool close_failed = std::fclose(f_) != 0;
  f_ = nullptr;
  if (failed_ || close_failed) return Status::Error("error writing the capture file");
  return Status::Ok();
}

}  // namespace fe::dp
