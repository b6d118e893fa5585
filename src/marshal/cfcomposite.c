/*-------------------------------------------------------------------------
 *
 * cfcomposite.c
 *	  Taking CompositeType values apart and putting them together.
 *
 * A CompositeType value is a sequence of components, each a 2-byte
 * big-endian length, that many bytes, and an end-of-component byte (0
 * inside a name; -1 or 1 on the last component of a slice bound, so that
 * the bound sorts before or after every name that has the bound's
 * components as a prefix).  CQL3 tables name their cells this way
 * (src/cql/), and their column_metadata matches one component of a name
 * (src/catalog/cfcatalog.c).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "marshal/cftype.h"

/*
 * Point *out and *outlen at component k of a composite value; false if the
 * value has no such component or is not well formed up to it.
 */
bool
cfCompositeComponent(const uint8 *data, int len, int k, const uint8 **out, int *outlen)
{
	int			pos = 0;

	for (int i = 0; pos < len; i++)
	{
		int			clen;

		if (len - pos < 2)
			return false;
		clen = (data[pos] << 8) | data[pos + 1];
		pos += 2;
		if (len - pos < clen + 1)
			return false;
		if (i == k)
		{
			*out = data + pos;
			*outlen = clen;
			return true;
		}
		pos += clen + 1;
	}
	return false;
}

/*
 * Split a composite value into at most max components (pointers into
 * data); returns how many it has, or -1 if it is not well formed or has
 * more.  eoc, if not NULL, receives the last component's end-of-component
 * byte.
 */
int
cfCompositeSplit(const uint8 *data, int len, int max, const uint8 **parts, int *lens, int8 *eoc)
{
	int			pos = 0;
	int			n = 0;

	if (eoc)
		*eoc = 0;
	while (pos < len)
	{
		int			clen;

		if (n >= max || len - pos < 2)
			return -1;
		clen = (data[pos] << 8) | data[pos + 1];
		pos += 2;
		if (len - pos < clen + 1)
			return -1;
		parts[n] = data + pos;
		lens[n] = clen;
		n++;
		pos += clen;
		if (eoc)
			*eoc = (int8) data[pos];
		pos++;
	}
	return n;
}

/* Append one component (end-of-component byte eoc) to a composite value. */
void
cfCompositeAppend(StringInfo buf, const uint8 *data, int len, int8 eoc)
{
	if (len > 0xFFFF)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("CompositeType component %d is %d bytes long; the limit is 65535", 0, len)));
	appendStringInfoChar(buf, (char) (len >> 8));
	appendStringInfoChar(buf, (char) (len & 0xFF));
	appendBinaryStringInfo(buf, (const char *) data, len);
	appendStringInfoChar(buf, (char) eoc);
}
