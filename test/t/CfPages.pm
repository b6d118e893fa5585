# Helpers for the TAP tests that damage pages on disk (006, 014): read and
# write one 8 kB block of a relation's file while the server is down.
package CfPages;

use strict;
use warnings;

use Exporter 'import';

use constant BLCKSZ => 8192;

our @EXPORT = qw(read_page write_page);

# Block $blkno of $file.
sub read_page
{
	my ($file, $blkno) = @_;
	open(my $fh, '<:raw', $file) or die "open $file: $!";
	seek($fh, $blkno * BLCKSZ, 0) or die "seek: $!";
	read($fh, my $page, BLCKSZ) == BLCKSZ or die "short read of block $blkno";
	close($fh);
	return $page;
}

# Write $page over block $blkno of $file.
sub write_page
{
	my ($file, $blkno, $page) = @_;
	open(my $fh, '+<:raw', $file) or die "open $file: $!";
	seek($fh, $blkno * BLCKSZ, 0) or die "seek: $!";
	print $fh $page or die "write: $!";
	close($fh);
}

1;
