// SPDX-License-Identifier: Apache-2.0
// The protobuf wire format (varints, fixed32/fixed64, length-delimited fields, packed and
// unpacked repeated scalars) for onnx_wire.h's messages. Every read checks the bytes left in
// the enclosing message first; a sub-message's bounds are its length-delimited field's.
#include "conformance/onnx_wire.h"

#include <cstring>
#include <fstream>
#include <iterator>

namespace dmlcpu_test {
namespace onnx_wire {
namespace {

enum WireType : uint32_t {
  kVarint = 0,
  kFixed64 = 1,
  kLengthDelimited = 2,
  kStartGroup = 3,
  kEndGroup = 4,
  kFixed32 = 5,
};

const char* WireTypeName(uint32_t wire_type) {
  switch (wire_type) {
    case kVarint: return "0 (varint)";
    case kFixed64: return "1 (fixed64)";
    case kLengthDelimited: return "2 (length-delimited)";
    case kStartGroup: return "3 (start group)";
    case kEndGroup: return "4 (end group)";
    case kFixed32: return "5 (fixed32)";
    case 6: return "6";
    default: return "7";
  }
}

struct FieldName {
  uint32_t number;
  const char* name;
};

// Known fields, for error messages; each list ends with {0, nullptr}.
const FieldName kTensorFields[] = {
    {1, "dims"},        {2, "data_type"},   {4, "float_data"}, {5, "int32_data"},
    {6, "string_data"}, {7, "int64_data"},  {8, "name"},       {9, "raw_data"},
    {10, "double_data"}, {11, "uint64_data"}, {0, nullptr}};
const FieldName kAttributeFields[] = {
    {1, "name"}, {2, "f"},      {3, "i"},       {4, "s"},    {5, "t"},
    {7, "floats"}, {8, "ints"}, {9, "strings"}, {20, "type"}, {0, nullptr}};
const FieldName kNodeFields[] = {{1, "input"},     {2, "output"}, {3, "name"},  {4, "op_type"},
                                 {5, "attribute"}, {7, "domain"}, {0, nullptr}};
const FieldName kValueInfoFields[] = {{1, "name"}, {0, nullptr}};
const FieldName kGraphFields[] = {{1, "node"},   {2, "name"},    {5, "initializer"},
                                  {11, "input"}, {12, "output"}, {0, nullptr}};
const FieldName kOperatorSetIdFields[] = {{1, "domain"}, {2, "version"}, {0, nullptr}};
const FieldName kModelFields[] = {
    {1, "ir_version"}, {7, "graph"}, {8, "opset_import"}, {0, nullptr}};

// One message's bytes [pos, end) inside a buffer that starts at `origin` (error offsets count
// from there).
struct Cursor {
  const uint8_t* origin;
  const uint8_t* pos;
  const uint8_t* end;
  const char* message;
  const FieldName* names;
  std::string* error;
};

// A field as it came off the wire; the payload is not interpreted yet.
struct Field {
  uint32_t number = 0;
  uint32_t wire_type = 0;
  size_t offset_bytes = 0;        // of its tag, from the buffer's start
  uint64_t value = 0;             // varint, fixed32 or fixed64 payload
  const uint8_t* data = nullptr;  // length-delimited payload
  size_t size_bytes = 0;
};

std::string MessageWhere(const Cursor& c, size_t offset_bytes) {
  return std::string(c.message) + " at byte " + std::to_string(offset_bytes);
}

std::string FieldWhere(const Cursor& c, const Field& f) {
  std::string where = c.message;
  for (const FieldName* n = c.names; n->name != nullptr; ++n) {
    if (n->number == f.number) {
      where += std::string(".") + n->name + " (field " + std::to_string(f.number) + ")";
      return where + " at byte " + std::to_string(f.offset_bytes);
    }
  }
  return where + " field " + std::to_string(f.number) + " at byte " +
         std::to_string(f.offset_bytes);
}

bool Fail(const Cursor& c, const std::string& where, const std::string& what) {
  *c.error = where + ": " + what;
  return false;
}

// A base-128 varint at *pos, not reading at or past `end`. On failure *problem says why.
bool ReadVarint(const uint8_t** pos, const uint8_t* end, uint64_t* value, const char** problem) {
  uint64_t result = 0;
  for (int i = 0; i < 10; ++i) {
    if (*pos == end) {
      *problem = "truncated varint (the bytes end before its last byte)";
      return false;
    }
    const uint8_t byte = *(*pos)++;
    if (i == 9 && byte > 1) {
      *problem = "varint longer than 64 bits";
      return false;
    }
    result |= static_cast<uint64_t>(byte & 0x7F) << (7 * i);
    if ((byte & 0x80) == 0) {
      *value = result;
      return true;
    }
  }
  *problem = "varint longer than 64 bits";  // not reached: byte 10 above 1 fails in the loop
  return false;
}

uint64_t LoadLittleEndian(const uint8_t* p, size_t size_bytes) {
  uint64_t value = 0;
  for (size_t i = size_bytes; i-- > 0;) value = (value << 8) | p[i];
  return value;
}

// Reads the next tag and its payload (which is also how an unknown field is skipped).
bool ReadField(Cursor* c, Field* f) {
  f->offset_bytes = static_cast<size_t>(c->pos - c->origin);
  const char* problem = nullptr;
  uint64_t tag = 0;
  if (!ReadVarint(&c->pos, c->end, &tag, &problem)) {
    return Fail(*c, MessageWhere(*c, f->offset_bytes), std::string("tag: ") + problem);
  }
  const uint64_t number = tag >> 3;
  if (number == 0 || number > 0x1FFFFFFF) {
    return Fail(*c, MessageWhere(*c, f->offset_bytes),
                "field number " + std::to_string(number) + ", expected in [1, 536870911]");
  }
  f->number = static_cast<uint32_t>(number);
  f->wire_type = static_cast<uint32_t>(tag & 7);
  const size_t left_bytes = static_cast<size_t>(c->end - c->pos);
  switch (f->wire_type) {
    case kVarint:
      if (!ReadVarint(&c->pos, c->end, &f->value, &problem)) {
        return Fail(*c, FieldWhere(*c, *f), problem);
      }
      return true;
    case kFixed64:
    case kFixed32: {
      const size_t size_bytes = f->wire_type == kFixed64 ? 8 : 4;
      if (left_bytes < size_bytes) {
        return Fail(*c, FieldWhere(*c, *f),
                    "fixed" + std::to_string(8 * size_bytes) + " needs " +
                        std::to_string(size_bytes) + " bytes, " + std::to_string(left_bytes) +
                        " left in " + c->message);
      }
      f->value = LoadLittleEndian(c->pos, size_bytes);
      c->pos += size_bytes;
      return true;
    }
    case kLengthDelimited: {
      uint64_t length = 0;
      if (!ReadVarint(&c->pos, c->end, &length, &problem)) {
        return Fail(*c, FieldWhere(*c, *f), std::string("length: ") + problem);
      }
      const size_t after_length_bytes = static_cast<size_t>(c->end - c->pos);
      if (length > after_length_bytes) {
        return Fail(*c, FieldWhere(*c, *f),
                    "length " + std::to_string(length) + " runs past the end of " + c->message +
                        " (" + std::to_string(after_length_bytes) + " bytes left)");
      }
      f->data = c->pos;
      f->size_bytes = static_cast<size_t>(length);
      c->pos += f->size_bytes;
      return true;
    }
    case kStartGroup:
    case kEndGroup:
      return Fail(*c, FieldWhere(*c, *f),
                  std::string("wire type ") + WireTypeName(f->wire_type) +
                      " (groups are not used by onnx.proto and not supported)");
    default:
      return Fail(*c, FieldWhere(*c, *f),
                  std::string("wire type ") + WireTypeName(f->wire_type) +
                      " is not a protobuf wire type");
  }
}

bool ExpectWireType(const Cursor& c, const Field& f, uint32_t wire_type) {
  if (f.wire_type == wire_type) return true;
  return Fail(c, FieldWhere(c, f),
              std::string("wire type ") + WireTypeName(f.wire_type) + ", expected " +
                  WireTypeName(wire_type));
}

template <typename T>
bool Varint(const Cursor& c, const Field& f, T* value) {
  if (!ExpectWireType(c, f, kVarint)) return false;
  *value = static_cast<T>(f.value);  // int32: the low 32 bits, as protobuf reads it
  return true;
}

template <typename T>
T FromBits(uint64_t bits) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "fixed32 or fixed64");
  T value;
  if (sizeof(T) == 4) {
    const uint32_t low = static_cast<uint32_t>(bits);
    std::memcpy(&value, &low, sizeof(T));
  } else {
    std::memcpy(&value, &bits, sizeof(T));
  }
  return value;
}

bool Fixed32Float(const Cursor& c, const Field& f, float* value) {
  if (!ExpectWireType(c, f, kFixed32)) return false;
  *value = FromBits<float>(f.value);
  return true;
}

template <typename Container>
bool Bytes(const Cursor& c, const Field& f, Container* value) {
  if (!ExpectWireType(c, f, kLengthDelimited)) return false;
  value->assign(f.data, f.data + f.size_bytes);
  return true;
}

bool AppendString(const Cursor& c, const Field& f, std::vector<std::string>* values) {
  values->emplace_back();
  return Bytes(c, f, &values->back());
}

// A repeated varint field: one element (unpacked) or a packed run of varints.
template <typename T>
bool AppendVarints(const Cursor& c, const Field& f, std::vector<T>* values) {
  if (f.wire_type == kVarint) {
    values->push_back(static_cast<T>(f.value));
    return true;
  }
  if (f.wire_type != kLengthDelimited) return ExpectWireType(c, f, kVarint);
  const uint8_t* pos = f.data;
  const uint8_t* end = f.data + f.size_bytes;
  while (pos != end) {
    uint64_t value = 0;
    const char* problem = nullptr;
    if (!ReadVarint(&pos, end, &value, &problem)) {
      return Fail(c, FieldWhere(c, f),
                  "packed element " + std::to_string(values->size()) + ": " + problem);
    }
    values->push_back(static_cast<T>(value));
  }
  return true;
}

// A repeated float/double field: one fixed32/fixed64 element or a packed run of them.
template <typename T>
bool AppendFixed(const Cursor& c, const Field& f, std::vector<T>* values) {
  const uint32_t wire_type = sizeof(T) == 8 ? kFixed64 : kFixed32;
  if (f.wire_type == wire_type) {
    values->push_back(FromBits<T>(f.value));
    return true;
  }
  if (f.wire_type != kLengthDelimited) return ExpectWireType(c, f, wire_type);
  if (f.size_bytes % sizeof(T) != 0) {
    return Fail(c, FieldWhere(c, f),
                "packed length " + std::to_string(f.size_bytes) + " is not a multiple of " +
                    std::to_string(sizeof(T)));
  }
  for (size_t i = 0; i < f.size_bytes; i += sizeof(T)) {
    values->push_back(FromBits<T>(LoadLittleEndian(f.data + i, sizeof(T))));
  }
  return true;
}

// A sub-message: its bytes are the field's payload; offsets still count from the buffer start.
bool SubCursor(const Cursor& c, const Field& f, const char* message, const FieldName* names,
               Cursor* sub) {
  if (!ExpectWireType(c, f, kLengthDelimited)) return false;
  *sub = Cursor{c.origin, f.data, f.data + f.size_bytes, message, names, c.error};
  return true;
}

// A sub-message field parsed into *value (fields seen twice merge, as protobuf merges them).
template <typename Message>
bool ReadMessage(const Cursor& c, const Field& f, const char* message, const FieldName* names,
                 bool (*parse)(Cursor, Message*), Message* value) {
  Cursor sub;
  return SubCursor(c, f, message, names, &sub) && parse(sub, value);
}

// One element of a repeated sub-message field.
template <typename Message>
bool AppendMessage(const Cursor& c, const Field& f, const char* message, const FieldName* names,
                   bool (*parse)(Cursor, Message*), std::vector<Message>* values) {
  values->emplace_back();
  return ReadMessage(c, f, message, names, parse, &values->back());
}

// Reads the fields of the message under `c` in order: on_field(cursor after the field, field)
// stores the known ones (unknown ones are skipped by ReadField); false stops with the error set.
template <typename OnField>
bool ForEachField(Cursor c, const OnField& on_field) {
  while (c.pos != c.end) {
    Field f;
    if (!ReadField(&c, &f) || !on_field(c, f)) return false;
  }
  return true;
}

bool ParseTensorAt(Cursor c, TensorProto* t) {
  return ForEachField(c, [t](const Cursor& at, const Field& f) {
    switch (f.number) {
      case 1: return AppendVarints(at, f, &t->dims);
      case 2: return Varint(at, f, &t->data_type);
      case 4: return AppendFixed(at, f, &t->float_data);
      case 5: return AppendVarints(at, f, &t->int32_data);
      case 6: return AppendString(at, f, &t->string_data);
      case 7: return AppendVarints(at, f, &t->int64_data);
      case 8: return Bytes(at, f, &t->name);
      case 9:
        if (!Bytes(at, f, &t->raw_data)) return false;
        t->has_raw_data = true;
        return true;
      case 10: return AppendFixed(at, f, &t->double_data);
      case 11: return AppendVarints(at, f, &t->uint64_data);
      default: return true;
    }
  });
}

bool ParseAttributeAt(Cursor c, AttributeProto* a) {
  return ForEachField(c, [a](const Cursor& at, const Field& f) {
    switch (f.number) {
      case 1: return Bytes(at, f, &a->name);
      case 2: return Fixed32Float(at, f, &a->f);
      case 3: return Varint(at, f, &a->i);
      case 4: return Bytes(at, f, &a->s);
      case 5:
        if (!a->t) a->t.emplace();
        return ReadMessage(at, f, "TensorProto", kTensorFields, ParseTensorAt, &*a->t);
      case 7: return AppendFixed(at, f, &a->floats);
      case 8: return AppendVarints(at, f, &a->ints);
      case 9: return AppendString(at, f, &a->strings);
      case 20: return Varint(at, f, &a->type);
      default: return true;
    }
  });
}

bool ParseNodeAt(Cursor c, NodeProto* n) {
  return ForEachField(c, [n](const Cursor& at, const Field& f) {
    switch (f.number) {
      case 1: return AppendString(at, f, &n->input);
      case 2: return AppendString(at, f, &n->output);
      case 3: return Bytes(at, f, &n->name);
      case 4: return Bytes(at, f, &n->op_type);
      case 5:
        return AppendMessage(at, f, "AttributeProto", kAttributeFields, ParseAttributeAt,
                             &n->attribute);
      case 7: return Bytes(at, f, &n->domain);
      default: return true;
    }
  });
}

bool ParseValueInfoAt(Cursor c, ValueInfoProto* v) {
  return ForEachField(c, [v](const Cursor& at, const Field& f) {
    return f.number != 1 || Bytes(at, f, &v->name);
  });
}

bool ParseGraphAt(Cursor c, GraphProto* g) {
  return ForEachField(c, [g](const Cursor& at, const Field& f) {
    switch (f.number) {
      case 1: return AppendMessage(at, f, "NodeProto", kNodeFields, ParseNodeAt, &g->node);
      case 2: return Bytes(at, f, &g->name);
      case 5:
        return AppendMessage(at, f, "TensorProto", kTensorFields, ParseTensorAt,
                             &g->initializer);
      case 11:
        return AppendMessage(at, f, "ValueInfoProto", kValueInfoFields, ParseValueInfoAt,
                             &g->input);
      case 12:
        return AppendMessage(at, f, "ValueInfoProto", kValueInfoFields, ParseValueInfoAt,
                             &g->output);
      default: return true;
    }
  });
}

bool ParseOperatorSetIdAt(Cursor c, OperatorSetIdProto* o) {
  return ForEachField(c, [o](const Cursor& at, const Field& f) {
    switch (f.number) {
      case 1: return Bytes(at, f, &o->domain);
      case 2: return Varint(at, f, &o->version);
      default: return true;
    }
  });
}

bool ParseModelAt(Cursor c, ModelProto* m) {
  return ForEachField(c, [m](const Cursor& at, const Field& f) {
    switch (f.number) {
      case 1: return Varint(at, f, &m->ir_version);
      case 7: return ReadMessage(at, f, "GraphProto", kGraphFields, ParseGraphAt, &m->graph);
      case 8:
        return AppendMessage(at, f, "OperatorSetIdProto", kOperatorSetIdFields,
                             ParseOperatorSetIdAt, &m->opset_import);
      default: return true;
    }
  });
}

}  // namespace

bool ParseModel(const uint8_t* data, size_t size_bytes, ModelProto* model, std::string* error) {
  return ParseModelAt(Cursor{data, data, data + size_bytes, "ModelProto", kModelFields, error},
                      model);
}

bool ParseTensor(const uint8_t* data, size_t size_bytes, TensorProto* tensor,
                 std::string* error) {
  return ParseTensorAt(
      Cursor{data, data, data + size_bytes, "TensorProto", kTensorFields, error}, tensor);
}

bool ReadFileBytes(const std::filesystem::path& path, std::vector<uint8_t>* bytes,
                   std::string* error) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    *error = "cannot open " + path.string();
    return false;
  }
  bytes->assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
  if (file.bad()) {
    *error = "cannot read " + path.string();
    return false;
  }
  return true;
}

}  // namespace onnx_wire
}  // namespace dmlcpu_test
